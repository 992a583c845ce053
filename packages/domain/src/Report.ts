import { Schema } from "effect"
import { PageMeta } from "./Paging.ts"
import { UtcTimestamp } from "./Validation.ts"
import { RoundStatus } from "./Round.ts"
import { ValidationFailed } from "./Validation.ts"

/** The longest period a report or round list covers: 366 days. */
export const maxRangeDays = 366

/**
 * How deep the round list pages: `(page − 1) × limit` at most this. A deeper page would make the database read and
 * skip every round before it on each request; the CSV export, or a narrower period, reaches the rest.
 */
export const maxRoundsOffset = 10_000

/** A period of time: `from` inclusive, `to` exclusive. */
export interface ReportRange {
  readonly from: Date
  readonly to: Date
}

/** Checks that `from` is before `to` and that the period is at most {@link maxRangeDays} days. */
export const checkRange = (range: ReportRange): ValidationFailed | undefined => {
  const span = range.to.getTime() - range.from.getTime()
  if (span <= 0) return new ValidationFailed({ field: "to", detail: "must be later than from" })
  if (span > maxRangeDays * 86_400_000) {
    return new ValidationFailed({ field: "to", detail: `must be at most ${maxRangeDays} days after from` })
  }
  return undefined
}

/** How the summary groups: by UTC day of the round, by game, by player or by retail shop (CONTRACT §11). */
export const GroupBy = Schema.Literals(["day", "game", "player", "shop"])
export type GroupBy = typeof GroupBy.Type

/** The filters of the operator's round list. */
export interface RoundFilter extends ReportRange {
  readonly playerId?: string | undefined
  readonly gameId?: string | undefined
  readonly status?: typeof RoundStatus.Type | undefined
  /** Only the rounds played at this retail shop (CONTRACT §11). */
  readonly shopId?: string | undefined
  /** Only this round (the back office's look-up). */
  readonly roundId?: string | undefined
}

/** The period and filter of the GGR summary. */
export interface SummaryFilter extends ReportRange {
  /** Only the rounds played at this retail shop (CONTRACT §11). */
  readonly shopId?: string | undefined
}

/**
 * Where a wallet transaction is. Credits and refunds carry their outbox
 * state (`pending`, `delivered`, `failed`). The debit is sent at once and
 * never queued: `pending` while the round is debiting, `delivered` once the
 * round settled, `refused` when the operator refused it, `unknown` when its
 * outcome is unknown (the round failed and a refund reverses it).
 */
export const TransactionStatus = Schema.Literals(["pending", "delivered", "failed", "refused", "unknown"])
export type TransactionStatus = typeof TransactionStatus.Type

/** The type of a wallet transaction. */
export const TransactionType = Schema.Literals(["debit", "credit", "refund"])
export type TransactionType = typeof TransactionType.Type

/** A wallet transaction of a round, as a round lists it. */
export class RoundTransaction extends Schema.Class<RoundTransaction>("@gateway/domain/RoundTransaction")(Schema.Struct({
  transactionId: Schema.String.annotate({ description: "The wallet transaction's id: the `webhook-id` of its message" }),
  type: TransactionType.annotate({ description: "`debit` (the stake), `credit` (the payout) or `refund` (a debit reversed)" }),
  amount: Schema.String.annotate({ description: "A decimal string in the round's currency, e.g. \"5.00\"" }),
  status: TransactionStatus.annotate({ description: "Where the message is: `pending`, `delivered`, `failed`, `refused` or `unknown`" })
}).annotate({
  identifier: "RoundTransaction",
  description: "A wallet transaction of a round, as a round lists it."
})) {}

/** One wallet transaction with its round (`GET /operator-api/transactions/{transactionId}`). */
export class TransactionView extends Schema.Class<TransactionView>("@gateway/domain/TransactionView")(Schema.Struct({
  ...RoundTransaction.fields,
  roundId: Schema.String.annotate({ description: "The round's id" }),
  currency: Schema.String.annotate({ description: "The currency of the amounts (ISO 4217)" })
}).annotate({
  identifier: "TransactionView",
  description: "One wallet transaction with its round (`GET /operator-api/transactions/{transactionId}`)."
})) {}

/** A round as the operator reconciles it. */
export class OperatorRound extends Schema.Class<OperatorRound>("@gateway/domain/OperatorRound")(Schema.Struct({
  roundId: Schema.String.annotate({ description: "The round's id" }),
  gameId: Schema.String.annotate({ description: "The game's id" }),
  playerId: Schema.String.annotate({ description: "The player's id in the operator's system" }),
  sessionId: Schema.String.annotate({ description: "The operator's session id (the launch's `sessionId`)" }),
  mode: Schema.Literals(["real", "demo"]).annotate({ description: "`real` (money) or `demo` (virtual balance)" }),
  status: RoundStatus.annotate({ description: "`debiting`, then `settled`, `refused` or `failed`" }),
  stake: Schema.String.annotate({ description: "The stake, a decimal string in the round's currency" }),
  payout: Schema.NullOr(Schema.String).annotate({ description: "What the round paid (\"0.00\" for a loss); null until it is settled" }),
  currency: Schema.String.annotate({ description: "The currency of the amounts (ISO 4217)" }),
  createdAt: UtcTimestamp("When the round was played (ISO 8601, UTC)"),
  shopId: Schema.optionalKey(Schema.String).annotate({
    description: "The retail shop the round was played at (the launch's `shopId`, CONTRACT §11); absent for online play"
  }),
  transactions: Schema.Array(RoundTransaction).annotate({ description: "The round's wallet transactions, oldest first" }),
  roundDetailsUrl: Schema.optionalKey(Schema.String).annotate({
    description: "The round's signed link, valid for ever (CONTRACT §10): an HTML page for people, JSON with " +
      "`accept: application/json`; the same link as in its credit or refund webhook"
  }),
  freeRoundGrantId: Schema.optionalKey(Schema.String).annotate({
    description: "On a free round only (CONTRACT §13): the grant it was taken from. It has no debit; its win, if any, " +
      "is its one credit"
  })
}).annotate({
  identifier: "OperatorRound",
  description: "A round as the operator reconciles it."
})) {}

/** A page of the merchant's rounds, newest first. */
export class OperatorRoundList extends Schema.Class<OperatorRoundList>("@gateway/domain/OperatorRoundList")(Schema.Struct({
  data: Schema.Array(OperatorRound).annotate({ description: "The rounds of this page, newest first" }),
  meta: PageMeta
}).annotate({
  identifier: "OperatorRoundList",
  description: "A page of the merchant's rounds, newest first."
})) {}

/** Sums of a group, in minor units, as the ledger gives them. */
export interface Sums {
  readonly rounds: number
  readonly bets: bigint
  readonly wins: bigint
  readonly refunds: bigint
  /** The part of `wins` that free rounds paid (CONTRACT §13). */
  readonly freeWins: bigint
}

/**
 * The gross gaming revenue of sums: `bets − wins − refunds`, in minor units
 * (negative when the players won). The one definition the GGR summary and the
 * revenue share both use.
 */
export const ggrOf = (sums: Pick<Sums, "bets" | "wins" | "refunds">): bigint => sums.bets - sums.wins - sums.refunds

/** The figures of a summary: decimal strings, `ggr = bets − wins − refunds`. */
export const SummaryFigures = Schema.Struct({
  rounds: Schema.Int.annotate({ description: "Rounds played" }),
  bets: Schema.String.annotate({ description: "Stakes debited, a decimal string" }),
  wins: Schema.String.annotate({ description: "Payouts credited, a decimal string" }),
  refunds: Schema.String.annotate({ description: "Stakes refunded, a decimal string" }),
  ggr: Schema.String.annotate({ description: "Gross gaming revenue: bets − wins − refunds (negative when the players won)" }),
  freeWins: Schema.String.annotate({
    description: "The part of `wins` that free rounds paid (CONTRACT §13), a decimal string: no bet stands against it"
  })
})

/** A group of a summary: its key and figures. */
export const SummaryRow = Schema.Struct({
  key: Schema.String.annotate({
    description: "The group: a day (`2026-11-25`), a game id, a player id or a shop id (`\"\"` for the rounds played " +
      "without a shop)"
  }),
  ...SummaryFigures.fields
})
export type SummaryRow = typeof SummaryRow.Type

/**
 * A page of the GGR summary of a period (`GET /operator-api/reports/summary`): the groups of the page in key order,
 * the page's `meta` (`totalElements` counts groups), and the `total` of the whole period, not of the page.
 */
export class Summary extends Schema.Class<Summary>("@gateway/domain/Summary")(Schema.Struct({
  currency: Schema.String.annotate({ description: "The currency of the amounts (ISO 4217)" }),
  data: Schema.Array(SummaryRow).annotate({ description: "The groups of this page, in key order" }),
  meta: PageMeta,
  total: SummaryFigures.annotate({ description: "The figures of the whole period, not only of this page" })
}).annotate({
  identifier: "Summary",
  description: "A page of the GGR summary of a period (`GET /operator-api/reports/summary`): the groups of the page in key order, the page's `meta` (`totalElements` counts groups), and the `total` of the whole period, not of the page."
})) {}

/**
 * The reports this merchant, or the whole gateway, may run at once are all running, or this merchant's reports
 * have used their share of the database's time (`database-time`): try again after `retryAfterSeconds`. Reports
 * have a budget of their own so that they never take the connections or the database time bets need.
 */
export class ReportsBusy extends Schema.TaggedError<ReportsBusy>()("ReportsBusy", {
  scope: Schema.Literals(["merchant", "gateway", "database-time"]),
  retryAfterSeconds: Schema.Int
}) {
  override get message(): string {
    switch (this.scope) {
      case "merchant":
        return `this merchant already runs as many reports (or CSV downloads) as it may at once; retry after ${this.retryAfterSeconds} s`
      case "gateway":
        return `the gateway runs as many reports (or CSV downloads) as it allows, at once or in database time; retry after ${this.retryAfterSeconds} s`
      case "database-time":
        return `this merchant's reports have used their share of the database's time; retry after ${this.retryAfterSeconds} s`
    }
  }
}

/** A report's query ran longer than the reports' statement time-out and was cancelled: narrow the period or filters. */
export class ReportTimedOut extends Schema.TaggedError<ReportTimedOut>()("ReportTimedOut", {
  retryAfterSeconds: Schema.Int
}) {
  override get message(): string {
    return "the report took longer than its time-out and was cancelled; narrow the period or the filters, or retry later"
  }
}

/** Why a report could not be served now; see {@link ReportsBusy} and {@link ReportTimedOut}. */
export type ReportUnavailable = ReportsBusy | ReportTimedOut

/** No transaction with this id among the merchant's. */
export class TransactionNotFound extends Schema.TaggedError<TransactionNotFound>()("TransactionNotFound", {
  transactionId: Schema.String
}) {
  override get message(): string {
    return `no transaction '${this.transactionId.slice(0, 64)}'`
  }
}
