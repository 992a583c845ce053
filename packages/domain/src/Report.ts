import { Schema } from "effect"
import { PageMeta } from "./Paging.ts"
import { RoundStatus } from "./Round.ts"
import { ValidationFailed } from "./Validation.ts"

/** The longest period a report or round list covers: 366 days. */
export const maxRangeDays = 366

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

/** How the summary groups: by UTC day of the round, by game or by player. */
export const GroupBy = Schema.Literals(["day", "game", "player"])
export type GroupBy = typeof GroupBy.Type

/** The filters of the operator's round list. */
export interface RoundFilter extends ReportRange {
  readonly playerId?: string | undefined
  readonly gameId?: string | undefined
  readonly status?: typeof RoundStatus.Type | undefined
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
export class RoundTransaction extends Schema.Class<RoundTransaction>("@gateway/domain/RoundTransaction")({
  transactionId: Schema.String,
  type: TransactionType,
  amount: Schema.String,
  status: TransactionStatus
}) {}

/** One wallet transaction with its round (`GET /operator-api/transactions/{transactionId}`). */
export class TransactionView extends Schema.Class<TransactionView>("@gateway/domain/TransactionView")({
  ...RoundTransaction.fields,
  roundId: Schema.String,
  currency: Schema.String
}) {}

/** A round as the operator reconciles it. */
export class OperatorRound extends Schema.Class<OperatorRound>("@gateway/domain/OperatorRound")({
  roundId: Schema.String,
  gameId: Schema.String,
  playerId: Schema.String,
  sessionId: Schema.String.annotate({ description: "The operator's session id (the launch's `sessionId`)" }),
  mode: Schema.Literals(["real", "demo"]),
  status: RoundStatus,
  stake: Schema.String,
  payout: Schema.NullOr(Schema.String),
  currency: Schema.String,
  createdAt: Schema.DateTimeUtcFromString,
  transactions: Schema.Array(RoundTransaction)
}) {}

/** A page of the merchant's rounds, newest first. */
export class OperatorRoundList extends Schema.Class<OperatorRoundList>("@gateway/domain/OperatorRoundList")({
  data: Schema.Array(OperatorRound),
  meta: PageMeta
}) {}

/** Sums of a group, in minor units, as the ledger gives them. */
export interface Sums {
  readonly rounds: number
  readonly bets: bigint
  readonly wins: bigint
  readonly refunds: bigint
}

/**
 * The gross gaming revenue of sums: `bets − wins − refunds`, in minor units
 * (negative when the players won). The one definition the GGR summary and the
 * revenue share both use.
 */
export const ggrOf = (sums: Sums): bigint => sums.bets - sums.wins - sums.refunds

/** The figures of a summary: decimal strings, `ggr = bets − wins − refunds`. */
export const SummaryFigures = Schema.Struct({
  rounds: Schema.Int,
  bets: Schema.String,
  wins: Schema.String,
  refunds: Schema.String,
  ggr: Schema.String
})

/** The GGR summary of a period (`GET /operator-api/reports/summary`). */
export class Summary extends Schema.Class<Summary>("@gateway/domain/Summary")({
  currency: Schema.String,
  data: Schema.Array(Schema.Struct({ key: Schema.String, ...SummaryFigures.fields })),
  total: SummaryFigures
}) {}

/** No transaction with this id among the merchant's. */
export class TransactionNotFound extends Schema.TaggedError<TransactionNotFound>()("TransactionNotFound", {
  transactionId: Schema.String
}) {
  override get message(): string {
    return `no transaction '${this.transactionId.slice(0, 64)}'`
  }
}
