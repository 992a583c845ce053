import { Effect, Schema, SchemaTransformation } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Report, Round, Validation } from "@gateway/domain"
import * as Problem from "./Problem.ts"
import { KeyOperation, OperatorAuth } from "./Security.ts"

const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/u

/** An ISO 8601 date-time with its offset (`2026-11-01T00:00:00Z`), decoded to a Date. */
const DateTimeParam = (description: string) =>
  Schema.String.check(
    Schema.isPattern(isoDateTime, { message: "must be an ISO 8601 date-time like \"2026-11-01T00:00:00Z\"" }),
    Schema.makeFilter((text: string) => !Number.isNaN(Date.parse(text)) || "must be a valid date-time")
  ).annotate({ description, format: "date-time" }).pipe(
    Schema.decodeTo(
      Schema.Date,
      SchemaTransformation.transform({ decode: (text: string) => new Date(text), encode: (date: Date) => date.toISOString() })
    )
  )

const PositiveInt = (description: string, max?: number) =>
  Schema.Int.annotate({ message: "must be an integer" }).check(
    Schema.isGreaterThanOrEqualTo(1, { message: "must be ≥ 1" }),
    ...(max === undefined ? [] : [Schema.isLessThanOrEqualTo(max, { message: `must be ≤ ${max}` })])
  ).annotate({ description })

const Text = (description: string, max: number) =>
  Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(max), Validation.isStorableText).annotate({ description })

/** The period of a report: `from` inclusive, `to` exclusive (the range rule is `Report.checkRange`). */
export const range = {
  from: DateTimeParam("start of the period, inclusive (ISO 8601 date-time with offset)"),
  to: DateTimeParam(`end of the period, exclusive; at most ${Report.maxRangeDays} days after \`from\``)
}

/** `page` and `limit` of a list (CONTRACT §1). */
const paging = {
  page: PositiveInt("page number, ≥ 1, default 1").pipe(Schema.withDecodingDefaultKey(Effect.succeed(1))),
  limit: PositiveInt("items per page, 1..100, default 20", 100).pipe(Schema.withDecodingDefaultKey(Effect.succeed(20)))
}

/** The query of the operator's round list. */
export const RoundsQuery = {
  ...range,
  playerId: Schema.optionalKey(Text("only this player's rounds", 128)),
  gameId: Schema.optionalKey(Text("only this game's rounds", 64)),
  status: Schema.optionalKey(Round.RoundStatus),
  shopId: Schema.optionalKey(Text("only the rounds played at this retail shop (the launch's `shopId`)", 64)),
  page: PositiveInt(
    `page number, ≥ 1, default 1; \`(page − 1) × limit\` at most ${Report.maxRoundsOffset} (narrow the period, or ` +
      "take the CSV, for rounds beyond)"
  ).pipe(Schema.withDecodingDefaultKey(Effect.succeed(1))),
  limit: paging.limit
}

/** The query of the summary. */
export const SummaryQuery = {
  ...range,
  groupBy: Report.GroupBy.pipe(Schema.withDecodingDefaultKey(Effect.succeed("day" as const))),
  shopId: Schema.optionalKey(Text("only the rounds played at this retail shop (the launch's `shopId`)", 64)),
  ...paging
}

const budgetNote = "\n\nReports have a budget of their own, apart from bets and launches: one report page and one CSV " +
  "download per merchant at a time (`REPORTS_MAX_PER_MERCHANT`, `REPORTS_MAX_CONCURRENT` and `REPORTS_MAX_EXPORTS` in " +
  "all), and a share of the database's time per merchant (`REPORTS_DB_SHARE`) and in all (`REPORTS_DB_SHARE_TOTAL`). " +
  "A report over it is refused at once with 429 `REPORTS_BUSY` and `retry-after` (the detail says which limit); a " +
  "CSV download over the share is slowed between batches, never cut. A query that runs past " +
  "`REPORTS_STATEMENT_TIMEOUT_MS` is cancelled and answered 503 `REPORT_TIMEOUT` with `retry-after` (narrow the " +
  "period or filters). A CSV download holds its place until its last byte."

/** The CSV form of a report (`Accept: text/csv`), streamed; see `csv/Csv.ts`. */
const Csv = HttpApiSchema.StreamUint8Array({ contentType: "text/csv; charset=utf-8" })

const csvNote = "With `Accept: text/csv` (preferred over JSON by q-value) the answer is `text/csv; charset=utf-8` " +
  "(RFC 4180: a header row, CRLF line ends, cells with a comma, semicolon, tab, `|`, quote or line break quoted) " +
  "as a download (`content-disposition: attachment`). In player, game and session ids, a `=`, `+`, `-`, `@`, tab " +
  "or CR at the start, and a `=`, `+`, `-` or `@` right after a separator, quote or line break, gets a `'` before " +
  "it, so a spreadsheet never runs them as formulas, whichever list separator its locale uses. An `Accept` naming " +
  "neither JSON " +
  "nor CSV gets JSON. Errors are problem+json as usual; they are all found before the first byte. "

const testKeyRead = "An `sv_test` key reads no real-money data: 403 FORBIDDEN (JSON and CSV alike); use an " +
  "`sv_live` key. A test key's demo rounds are in the game page's recall (`GET /api/v1.1/game-api/rounds/{roundId}`)."

const transactionId = Schema.String.check(Schema.isMaxLength(64), Validation.isStorableText)

/** Reconciliation for operators (`sv-api-key`, the key's merchant): rounds, transactions and the GGR summary. */
export class ReportsApi extends HttpApiGroup.make("reports")
  .add(
    HttpApiEndpoint.get("rounds", "/rounds", {
      query: RoundsQuery,
      success: [Report.OperatorRoundList, Csv],
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "REPORTS_BUSY", "REPORT_TIMEOUT")
    })
      .annotate(KeyOperation, "readRealMoney")
      .annotate(OpenApi.Summary, "List rounds with their wallet transactions")
      .annotate(
        OpenApi.Description,
        "The merchant's rounds created in [`from`, `to`) (at most " + Report.maxRangeDays + " days), newest first, " +
          "each with its transactions. A credit's or refund's `status` is its webhook delivery state " +
          "(`pending`, `delivered`, `failed`); the debit is sent at once, never queued: `pending` while the round " +
          "is debiting, `delivered` once settled, `refused` when the operator refused it, `unknown` when its outcome " +
          "was unknown (the round failed and a refund reverses it). Demo rounds have no transactions.\n\n" + csvNote +
          "The CSV is every round of the period and filters, newest first, without paging (`page` and `limit` are " +
          "ignored), streamed as it is read: one record per transaction with the round's fields repeated, columns " +
          "`roundId, createdAt, playerId, gameId, sessionId, mode, status, stake, payout, currency, transactionId, " +
          "type, amount, transactionStatus, shopId, freeRoundGrantId, roundDetailsUrl`; a round without transactions is one record with its four " +
          "transaction cells empty; `shopId` is empty for online play. `shopId` keeps only the rounds of that shop. " +
          "`freeRoundGrantId` is set on a free round's records only (CONTRACT §13). `roundDetailsUrl` is the round's " +
          "signed link (CONTRACT §10), as in the JSON. " +
          "A database failure in the middle cuts the connection (the chunked body never ends), so a partial file " +
          "is never mistaken for a complete one.\n\nThe JSON list pages up to " + Report.maxRoundsOffset + " rounds " +
          "deep (`(page − 1) × limit`; a deeper page is 400 `VALIDATION_FAILED` naming `page`): narrow the period " +
          "(`from`, `to`) or download the CSV for more." + budgetNote + " " + testKeyRead
      ),
    HttpApiEndpoint.get("transaction", "/transactions/:transactionId", {
      params: { transactionId },
      success: Report.TransactionView,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "TRANSACTION_NOT_FOUND")
    })
      .annotate(KeyOperation, "readRealMoney")
      .annotate(OpenApi.Summary, "One wallet transaction with its round")
      .annotate(OpenApi.Description, "A transaction of another merchant, or none: 404 TRANSACTION_NOT_FOUND. " + testKeyRead),
    HttpApiEndpoint.get("summary", "/reports/summary", {
      query: SummaryQuery,
      success: [Report.Summary, Csv],
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "REPORTS_BUSY", "REPORT_TIMEOUT")
    })
      .annotate(KeyOperation, "readRealMoney")
      .annotate(OpenApi.Summary, "GGR summary")
      .annotate(
        OpenApi.Description,
        "Real-money rounds created in [`from`, `to`), from the ledger, in the merchant's currency, grouped by UTC " +
          "`day` of the round (default), `game`, `player` or `shop` (the retail shop of the launch, CONTRACT §11; " +
          "the rounds played without a shop are the group `\"\"`), sorted by key (bytewise), paged like every list: `page` " +
          "and `limit` (1..100, default 20) choose the groups, `meta.totalElements` counts them, and `total` is the " +
          "whole period's, whatever the page. `rounds` counts rounds that moved money; " +
          "`bets` the accepted debits, `wins` the credits, `refunds` the refunds, `ggr = bets − wins − refunds`, " +
          "exact decimal strings. `shopId` keeps only the rounds played at that shop. A failed round's debit (outcome unknown) counts as a bet and its refund as a " +
          "refund, so it nets to zero. `freeWins` is the part of `wins` that free rounds paid (CONTRACT §13): a free " +
          "round has no bet, its win is a credit the operator pays, so it lowers `ggr` like any win; a free round " +
          "that lost moved no money and is not counted in `rounds`.\n\n" + csvNote +
          "The CSV is every group of the period in key order, without paging (`page` and `limit` are ignored), " +
          "streamed as the database yields it (a thousand groups at a time): one record per group, columns " +
          "`key, rounds, bets, wins, refunds, ggr, currency, freeWins`, and no total record (the total is the sum of each " +
          "column)." + budgetNote + " " + testKeyRead
      )
  )
  .middleware(OperatorAuth)
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Reports")
  .annotate(
    OpenApi.Description,
    "Reconciliation for operators (`sv-api-key`, the key's merchant): rounds with their wallet " +
      "transactions, one transaction, and the GGR summary, as JSON or CSV."
  )
{}

