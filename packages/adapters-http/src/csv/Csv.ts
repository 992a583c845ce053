import { Effect, Stream } from "effect"
import { HttpServerResponse } from "effect/http"

/** The media type of every CSV answer (RFC 4180, UTF-8, no byte-order mark). */
export const contentType = "text/csv; charset=utf-8"

/** A cell: text that came from outside (a player or game id) is neutralised; our own values are written as they are. */
export type Cell = string | { readonly untrusted: string }

/** Quoted: the RFC 4180 specials, and every list separator a spreadsheet may split on (`;`, tab, `|` by locale). */
const needsQuotes = /[",;\t|\r\n]/u
/**
 * Where a spreadsheet could start a cell running a formula (OWASP "CSV
 * injection"): the start of the text when it begins with tab or CR, or with
 * `=`, `+`, `-` or `@` after blanks (spaces, tabs, CRs: some readers trim
 * them); and, inside it, right after a separator, a quote or a line break
 * when `=`, `+`, `-` or `@` follows after blanks — a reader splitting on `;`
 * or tab (Excel does, by locale) starts a cell there, quotes or not.
 */
const formulaStart = /^(?=[ \t\r]*[=+\-@]|[\t\r])|(?<=[,;\t|"\r\n])(?=[ \t\r]*[=+\-@])/gu

const quote = (text: string) => needsQuotes.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text

/**
 * One cell per RFC 4180: quoted when it holds a comma, a semicolon, a tab, a
 * `|`, a double quote, CR or LF, its quotes doubled. Untrusted text gets a
 * `'` before each place a spreadsheet could read as the start of a formula
 * (see `formulaStart`), so it shows as text instead of running
 * (`=HYPERLINK(…)` or `x;=1+2;` as a player id), whichever separator the
 * spreadsheet splits on.
 */
export const cell = (value: Cell): string =>
  quote(typeof value === "string" ? value : value.untrusted.replace(formulaStart, "'"))

/** One record, CRLF-terminated. */
export const row = (cells: ReadonlyArray<Cell>): string => cells.map(cell).join(",") + "\r\n"

const encoder = new TextEncoder()

/** Items formatted between two yields to the event loop: a slice of an export holds it for a few ms at most. */
export const sliceSize = 100

/**
 * A `200 text/csv` answer that downloads as `filename`: the header row at
 * once, then the records of `records`, `sliceSize` items at a time, each
 * slice encoded after a yield to the event loop so that other requests (bets)
 * are served between slices. The body is written as the client reads it
 * (backpressure), so memory stays at one chunk whatever the length; a client
 * that goes away interrupts the stream. `toRecords` gives an item's records,
 * each made by {@link row}.
 */
export const response = <A, E>(
  filename: string,
  header: ReadonlyArray<string>,
  records: Stream.Stream<A, E>,
  toRecords: (item: A) => string
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.stream(
    Stream.concat(
      Stream.succeed(encoder.encode(row(header))),
      Stream.mapEffect(
        Stream.chunks(Stream.rechunk(records, sliceSize)),
        (items) => Effect.as(Effect.yieldNow, encoder.encode(items.map(toRecords).join("")))
      )
    ),
    { contentType, headers: { "content-disposition": `attachment; filename="${filename}"` } }
  )
