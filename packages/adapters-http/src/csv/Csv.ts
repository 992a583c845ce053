import { Stream } from "effect"
import { HttpServerResponse } from "effect/http"

/** The media type of every CSV answer (RFC 4180, UTF-8, no byte-order mark). */
export const contentType = "text/csv; charset=utf-8"

/** A cell: text that came from outside (a player or game id) is neutralised; our own values are written as they are. */
export type Cell = string | { readonly untrusted: string }

const needsQuotes = /[",\r\n]/u
/** What a spreadsheet reads as the start of a formula (OWASP "CSV injection"), tab and CR included. */
const formulaStart = /^[=+\-@\t\r]/u

const quote = (text: string) => needsQuotes.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text

/**
 * One cell per RFC 4180: quoted when it holds a comma, a double quote, CR or
 * LF, its quotes doubled. Untrusted text starting with `=`, `+`, `-`, `@`,
 * tab or CR gets a leading `'`, so a spreadsheet shows it as text instead of
 * running it as a formula (`=HYPERLINK(…)` as a player id).
 */
export const cell = (value: Cell): string =>
  quote(typeof value === "string" ? value : formulaStart.test(value.untrusted) ? `'${value.untrusted}` : value.untrusted)

/** One record, CRLF-terminated. */
export const row = (cells: ReadonlyArray<Cell>): string => cells.map(cell).join(",") + "\r\n"

const encoder = new TextEncoder()

/**
 * A `200 text/csv` answer that downloads as `filename`: the header row at
 * once, then each chunk of `records` encoded as it is pulled. The body is
 * written as the client reads it (backpressure), so memory stays at one
 * chunk whatever the length; a client that goes away interrupts the stream.
 */
export const response = <A, E>(
  filename: string,
  header: ReadonlyArray<string>,
  records: Stream.Stream<A, E>,
  toRows: (item: A) => ReadonlyArray<ReadonlyArray<Cell>>
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.stream(
    Stream.concat(
      Stream.succeed(encoder.encode(row(header))),
      Stream.mapArray(records, (items) => [encoder.encode(items.flatMap((item) => toRows(item).map(row)).join(""))])
    ),
    { contentType, headers: { "content-disposition": `attachment; filename="${filename}"` } }
  )
