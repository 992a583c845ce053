import { CurrencyCode } from "@gateway/domain/Currency"
import * as Money from "@gateway/domain/Money"
import type { PageRequest } from "@gateway/domain/Paging"
import { offset } from "@gateway/domain/Paging"
import { Reports } from "@gateway/domain/ports/Reports"
import {
  type GroupBy,
  OperatorRound,
  type ReportRange,
  type RoundFilter,
  RoundTransaction,
  type TransactionStatus,
  TransactionNotFound,
  TransactionType,
  TransactionView
} from "@gateway/domain/Report"
import { RoundStatus } from "@gateway/domain/Round"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { isUuid } from "./db/Uuid.ts"

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
  debit_id: Schema.NullOr(Schema.String)
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
  refunds: Schema.BigIntFromString
})
const decodeRounds = Schema.decodeUnknownEffect(Schema.Array(RoundRow))
const decodeTransactions = Schema.decodeUnknownEffect(Schema.Array(TransactionRow))
const decodeSums = Schema.decodeUnknownEffect(Schema.Array(SumsRow))
const decodeTotals = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ total: Schema.Number })))

/** The debit is never queued: its state follows the round's. */
const debitStatus = (round: RoundState): TransactionStatus =>
  round === "settled" ? "delivered" : round === "refused" ? "refused" : round === "failed" ? "unknown" : "pending"
type RoundState = typeof RoundStatus.Type

const statusOf = (row: typeof TransactionRow.Type): TransactionStatus =>
  row.kind === "debit" ? debitStatus(row.round_status) : row.delivery_status ?? "unknown"

const groupKeys: Record<GroupBy, string> = {
  day: "to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
  game: "r.game_id",
  player: "s.player_id"
}

/**
 * {@link Reports} on PostgreSQL: rounds with their sessions, the ledger and
 * the outbox's delivery states. Sums are `numeric` in SQL, read as text and
 * kept as bigint: exact whatever their size.
 */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient

  const transactionsOf = (roundIds: ReadonlyArray<string>) =>
    roundIds.length === 0 ? Effect.succeed([]) : sql`
      SELECT l.round_id::text AS round_id, l.transaction_id::text AS transaction_id, l.kind, l.amount_minor,
        d.status AS delivery_status, r.status AS round_status, l.currency
      FROM ledger_entries l JOIN rounds r ON r.id = l.round_id
      LEFT JOIN webhook_deliveries d ON d.id = l.transaction_id::text
      WHERE l.round_id IN ${sql.in(roundIds)} AND l.kind <> 'debit'
      ORDER BY l.id`.pipe(Effect.flatMap(decodeTransactions))

  const rounds = Effect.fn("Reports.rounds")(function*(merchantId: number, filter: RoundFilter, page: PageRequest) {
    const where = sql.and([
      sql`r.merchant_id = ${merchantId}`,
      sql`r.created_at >= ${filter.from}`,
      sql`r.created_at < ${filter.to}`,
      ...(filter.playerId === undefined ? [] : [sql`s.player_id = ${filter.playerId}`]),
      ...(filter.gameId === undefined ? [] : [sql`r.game_id = ${filter.gameId}`]),
      ...(filter.status === undefined ? [] : [sql`r.status = ${filter.status}`])
    ])
    const [counted] = yield* sql`
      SELECT count(*)::float8 AS total FROM rounds r JOIN game_sessions s ON s.id = r.session_id WHERE ${where}`.pipe(
      Effect.flatMap(decodeTotals)
    )
    const rows = yield* sql`
      SELECT r.id::text AS round_id, r.game_id, s.player_id, s.operator_session_id, r.mode, r.status, r.stake_minor,
        r.payout_minor, s.currency, r.created_at, r.debit_id::text AS debit_id
      FROM rounds r JOIN game_sessions s ON s.id = r.session_id
      WHERE ${where}
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT ${page.limit} OFFSET ${offset(page)}`.pipe(Effect.flatMap(decodeRounds))
    const others = yield* transactionsOf(rows.map((row) => row.round_id))
    const views = rows.map((row) => {
      const format = (minor: bigint) => Money.format(Money.make(minor, row.currency))
      const debit = row.debit_id === null ? [] : [
        new RoundTransaction({
          transactionId: row.debit_id,
          type: "debit",
          amount: format(row.stake_minor),
          status: debitStatus(row.status)
        })
      ]
      const rest = others.filter((t) => t.round_id === row.round_id).map((t) =>
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
        transactions: [...debit, ...rest]
      })
    })
    return { rounds: views, total: counted?.total ?? 0 }
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const transaction = Effect.fn("Reports.transaction")(function*(merchantId: number, transactionId: string) {
    if (!isUuid(transactionId)) return yield* new TransactionNotFound({ transactionId })
    const [row] = yield* sql`
      SELECT r.id::text AS round_id, r.debit_id::text AS transaction_id, 'debit' AS kind, r.stake_minor AS amount_minor,
        NULL AS delivery_status, r.status AS round_status, s.currency
      FROM rounds r JOIN game_sessions s ON s.id = r.session_id
      WHERE r.debit_id = ${transactionId} AND r.merchant_id = ${merchantId}
      UNION ALL
      SELECT l.round_id::text, l.transaction_id::text, l.kind, l.amount_minor, d.status, r.status, l.currency
      FROM ledger_entries l JOIN rounds r ON r.id = l.round_id
      LEFT JOIN webhook_deliveries d ON d.id = l.transaction_id::text
      WHERE l.transaction_id = ${transactionId} AND l.kind <> 'debit' AND r.merchant_id = ${merchantId}`.pipe(
      Effect.flatMap(decodeTransactions)
    )
    if (row === undefined) return yield* new TransactionNotFound({ transactionId })
    return new TransactionView({
      transactionId: row.transaction_id,
      type: row.kind,
      amount: Money.format(Money.make(row.amount_minor, row.currency)),
      status: statusOf(row),
      roundId: row.round_id,
      currency: row.currency
    })
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  // A failed round's debit is not in the ledger (its outcome is unknown); its refund reverses it, so the refund
  // counts as that round's bet too, and the round nets to zero.
  const summary = Effect.fn("Reports.summary")(function*(
    merchantId: number,
    currency: CurrencyCode,
    range: ReportRange,
    groupBy: GroupBy
  ) {
    return yield* sql`
      WITH per_round AS (
        SELECT ${sql.literal(groupKeys[groupBy])} AS key,
          coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'debit'), 0) AS debits,
          coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'credit'), 0) AS credits,
          coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'refund'), 0) AS refunds
        FROM rounds r JOIN game_sessions s ON s.id = r.session_id JOIN ledger_entries l ON l.round_id = r.id
        WHERE r.merchant_id = ${merchantId} AND r.mode = 'real' AND l.currency = ${currency}
          AND r.created_at >= ${range.from} AND r.created_at < ${range.to}
        GROUP BY r.id, 1
      )
      SELECT key, count(*)::float8 AS rounds,
        (sum(debits) + sum(CASE WHEN debits = 0 THEN refunds ELSE 0 END))::text AS bets,
        sum(credits)::text AS wins, sum(refunds)::text AS refunds
      FROM per_round GROUP BY key ORDER BY key`.pipe(Effect.flatMap(decodeSums))
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  return Reports.of({ rounds, transaction, summary })
})

/** The reports on the database of the `SqlClient`. */
export const layer: Layer.Layer<Reports, never, SqlClient> = Layer.effect(Reports, make)
