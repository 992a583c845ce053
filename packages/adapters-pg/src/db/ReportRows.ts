import { CurrencyCode } from "@gateway/domain/Currency"
import * as Money from "@gateway/domain/Money"
import { RoundTransaction, type TransactionStatus, TransactionType, OperatorRound } from "@gateway/domain/Report"
import { RoundStatus } from "@gateway/domain/Round"
import { Schema } from "effect"

/*
 * The rows the operator reports read (rounds, their ledger transactions, sums) and how a round becomes the
 * operator's view of it (ReportsPg).
 */

const RoundRow = Schema.Struct({
  round_id: Schema.String,
  game_id: Schema.String,
  player_id: Schema.String,
  operator_session_id: Schema.String,
  mode: Schema.Literals(["real", "demo"]),
  status: RoundStatus,
  stake_minor: Schema.BigInt,
  payout_minor: Schema.NullOr(Schema.BigInt),
  currency: CurrencyCode,
  created_at: Schema.DateTimeUtcFromDate,
  debit_id: Schema.NullOr(Schema.String),
  shop_id: Schema.NullOr(Schema.String),
  free_round_grant_id: Schema.NullOr(Schema.String)
})
const TransactionRow = Schema.Struct({
  round_id: Schema.String,
  transaction_id: Schema.String,
  kind: TransactionType,
  amount_minor: Schema.BigInt,
  delivery_status: Schema.NullOr(Schema.Literals(["pending", "delivered", "failed"])),
  round_status: RoundStatus,
  currency: CurrencyCode
})
const SumsRow = Schema.Struct({
  key: Schema.String,
  rounds: Schema.Number,
  bets: Schema.BigIntFromString,
  wins: Schema.BigIntFromString,
  refunds: Schema.BigIntFromString,
  free_wins: Schema.BigIntFromString
})
export const decodeRounds = Schema.decodeUnknownEffect(Schema.Array(RoundRow))
export const decodeTransactions = Schema.decodeUnknownEffect(Schema.Array(TransactionRow))
export const decodeSums = Schema.decodeUnknownEffect(Schema.Array(SumsRow))
export const decodeSummaryPage = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({
  groups: Schema.Number,
  total_rounds: Schema.Number,
  total_bets: Schema.BigIntFromString,
  total_wins: Schema.BigIntFromString,
  total_refunds: Schema.BigIntFromString,
  total_free_wins: Schema.BigIntFromString,
  key: Schema.NullOr(Schema.String),
  rounds: Schema.NullOr(Schema.Number),
  bets: Schema.NullOr(Schema.BigIntFromString),
  wins: Schema.NullOr(Schema.BigIntFromString),
  refunds: Schema.NullOr(Schema.BigIntFromString),
  free_wins: Schema.NullOr(Schema.BigIntFromString)
})))
export const decodeTotals = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ total: Schema.Number })))

/** The debit is never queued: its state follows the round's. */
const debitStatus = (round: RoundState): TransactionStatus =>
  round === "settled" ? "delivered" : round === "refused" ? "refused" : round === "failed" ? "unknown" : "pending"
type RoundState = typeof RoundStatus.Type

export const statusOf = (row: typeof TransactionRow.Type): TransactionStatus =>
  row.kind === "debit" ? debitStatus(row.round_status) : row.delivery_status ?? "unknown"

/** Rounds read per query of {@link Reports.roundStream}: one short query per 1,000 rounds, memory flat. */
export const roundBatch = 1000

/** Where the next batch of a stream starts: the last round read (the exact `created_at`, as PostgreSQL's text). */
export interface Cursor {
  readonly createdAt: string
  readonly id: string
}

/** The rounds of `rows` with their transactions: the debit from the round, the others (`others`) from the ledger. */
export type RoundOf = typeof RoundRow.Type
export type TransactionOf = typeof TransactionRow.Type

/** Each round of `rows` with its transactions of `others` (all but the debit, from the ledger). */
export const withTransactions = (rows: ReadonlyArray<RoundOf>, others: ReadonlyArray<TransactionOf>) => {
  const byRound = new Map<string, Array<TransactionOf>>()
  for (const t of others) {
    const list = byRound.get(t.round_id)
    if (list === undefined) byRound.set(t.round_id, [t])
    else list.push(t)
  }
  return rows.map((row) => [row, byRound.get(row.round_id) ?? []] as const)
}

/** A round as the operator sees it: the debit from the round, the others from the ledger. */
export const viewOf = ([row, others]: readonly [RoundOf, ReadonlyArray<TransactionOf>]) => {
  const format = (minor: bigint) => Money.format(Money.make(minor, row.currency))
  const debit = row.debit_id === null ? [] : [
    new RoundTransaction({
      transactionId: row.debit_id,
      type: "debit",
      amount: format(row.stake_minor),
      status: debitStatus(row.status)
    })
  ]
  const rest = others.map((t) =>
    new RoundTransaction({ transactionId: t.transaction_id, type: t.kind, amount: format(t.amount_minor), status: statusOf(t) })
  )
  return new OperatorRound({
    roundId: row.round_id,
    gameId: row.game_id,
    playerId: row.player_id,
    sessionId: row.operator_session_id,
    mode: row.mode,
    status: row.status,
    stake: format(row.stake_minor),
    payout: row.payout_minor === null ? null : format(row.payout_minor),
    currency: row.currency,
    createdAt: row.created_at,
    ...(row.shop_id === null ? {} : { shopId: row.shop_id }),
    transactions: [...debit, ...rest],
    ...(row.free_round_grant_id === null ? {} : { freeRoundGrantId: row.free_round_grant_id })
  })
}
