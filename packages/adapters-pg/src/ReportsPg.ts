import { CurrencyCode } from "@gateway/domain/Currency"
import * as Money from "@gateway/domain/Money"
import type { PageRequest } from "@gateway/domain/Paging"
import { offset } from "@gateway/domain/Paging"
import { Reports, type SummaryGroup } from "@gateway/domain/ports/Reports"
import {
  ggrOf,
  type GroupBy,
  type ReportRange,
  ReportTimedOut,
  type RoundFilter,
  type SummaryFilter,
  TransactionNotFound,
  TransactionView
} from "@gateway/domain/Report"
import { Array as Arr, Effect, Layer, Option, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { ReportsDatabase } from "./db/Database.ts"
import * as ReportBudget from "./db/ReportBudget.ts"
import { bySessions, groupKeys, summaryBatch, summaryPageStatement, sumsStatement } from "./db/SummarySql.ts"
import { exportGroup, exportRow } from "./db/ExportRows.ts"
import { isUuid } from "./db/Uuid.ts"
import {
  type Cursor,
  decodeRounds,
  decodeSummaryPage,
  decodeSums,
  decodeTotals,
  decodeTransactions,
  type RoundOf,
  roundBatch,
  statusOf,
  type TransactionOf,
  viewOf,
  withTransactions
} from "./db/ReportRows.ts"

export { groupKeys, roundBatch, summaryBatch, summaryPageStatement, sumsStatement }

/**
 * Rounds of an export's batch made into views this many at a time, as the CSV takes them: a whole batch at once
 * held the event loop the bets share for ~10 ms (bench/README.md, "Isolation").
 */
const viewSlice = 100

/** What the reports may use: their own budget. Omitted: no limit (tests of the queries alone). */
export interface ReportsOptions {
  readonly limits?: ReportBudget.ReportLimits | undefined
  /**
   * A pause before each batch of a CSV export after the first, so that an export takes a bounded share of the
   * event loop that bets share (it is read, decoded and formatted there). Default 0.
   */
  readonly exportPauseMs?: number | undefined
}

/** A report's statement cancelled by `statement_timeout` is ReportTimedOut; anything else the database says is a defect. */
const timedOut = <A, R>(effect: Effect.Effect<A, SqlError | Schema.SchemaError, R>): Effect.Effect<A, ReportTimedOut, R> =>
  Effect.catch(effect, (error) =>
    error._tag === "SqlError" && error.reason._tag === "StatementTimeoutError"
      ? Effect.fail(new ReportTimedOut({ retryAfterSeconds: ReportBudget.retryAfterSeconds }))
      : Effect.die(error))

/**
 * {@link Reports} on PostgreSQL: rounds with their sessions, the ledger and
 * the outbox's delivery states. Sums are `numeric` in SQL, read as text and
 * kept as bigint: exact whatever their size.
 */
export const make = (options: ReportsOptions = {}) => Effect.gen(function*() {
  const sql = yield* SqlClient
  const budget = ReportBudget.make(options.limits ?? { total: Number.MAX_SAFE_INTEGER, perMerchant: Number.MAX_SAFE_INTEGER })
  const pause = options.exportPauseMs ?? 0
  const paced = <A, E, R>(first: boolean, effect: Effect.Effect<A, E, R>) =>
    first || pause <= 0 ? effect : Effect.andThen(Effect.sleep(pause), effect)

  const transactionsOf = (roundIds: ReadonlyArray<string>) =>
    roundIds.length === 0 ? Effect.succeed([]) : sql`
      SELECT l.round_id::text AS round_id, l.transaction_id::text AS transaction_id, l.kind, l.amount_minor,
        d.status AS delivery_status, r.status AS round_status, l.currency
      FROM ledger_entries l JOIN rounds r ON r.id = l.round_id
      LEFT JOIN webhook_deliveries d ON d.id = l.transaction_id::text
      WHERE l.round_id IN ${sql.in(roundIds)} AND l.kind <> 'debit'
      ORDER BY l.id`.pipe(Effect.flatMap(decodeTransactions))

  const filtered = (merchantId: number, filter: RoundFilter) => [
    sql`r.merchant_id = ${merchantId}`,
    sql`r.created_at >= ${filter.from}`,
    sql`r.created_at < ${filter.to}`,
    ...(filter.playerId === undefined ? [] : [sql`s.merchant_id = ${merchantId}`, sql`s.player_id = ${filter.playerId}`]),
    ...(filter.gameId === undefined ? [] : [sql`r.game_id = ${filter.gameId}`]),
    ...(filter.status === undefined ? [] : [sql`r.status = ${filter.status}`]),
    ...(filter.shopId === undefined ? [] : [sql`s.merchant_id = ${merchantId}`, sql`s.shop_id = ${filter.shopId}`]),
    ...(filter.roundId === undefined ? [] : [isUuid(filter.roundId) ? sql`r.id = ${filter.roundId}::uuid` : sql`false`])
  ]

  const roundsPage = Effect.fn("Reports.rounds")(function*(merchantId: number, filter: RoundFilter, page: PageRequest) {
    const where = sql.and(filtered(merchantId, filter))
    const [counted] = yield* sql`
      SELECT count(*)::float8 AS total FROM rounds r JOIN game_sessions s ON s.id = r.session_id WHERE ${where}`.pipe(
      Effect.flatMap(decodeTotals)
    )
    const rows = yield* sql`
      SELECT r.id::text AS round_id, r.game_id, s.player_id, s.operator_session_id, r.mode, r.status, r.stake_minor,
        r.payout_minor, s.currency, r.created_at, r.debit_id::text AS debit_id, s.shop_id,
        r.free_round_grant_id::text AS free_round_grant_id
      FROM rounds r JOIN game_sessions s ON s.id = r.session_id
      WHERE ${where}
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT ${page.limit} OFFSET ${offset(page)}`.pipe(Effect.flatMap(decodeRounds))
    const others = yield* transactionsOf(rows.map((row) => row.round_id))
    return { rounds: withTransactions(rows, others).map(viewOf), total: counted?.total ?? 0 }
  }, timedOut)

  const rounds = (merchantId: number, filter: RoundFilter, page: PageRequest) =>
    roundsPage(merchantId, filter, page).pipe(budget.within(merchantId))

  // Keyset batches on (created_at, id), the order of rounds_merchant_created_idx: each batch is one short query
  // on a pooled connection (none is held while a slow client reads), and a stream that stops reads no more. The
  // ledger is read per round of the batch (LATERAL, kept from being flattened by OFFSET 0) through
  // ledger_entries_round_idx: flattened, the planner may hash the whole ledger for a thousand rounds.
  const batch = Effect.fn("Reports.roundBatch")(function*(merchantId: number, filter: RoundFilter, after: Cursor | undefined) {
    const where = sql.and([
      ...filtered(merchantId, filter),
      ...(after === undefined ? [] : [sql`(r.created_at, r.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`])
    ])
    const rows = yield* sql`
      WITH batch AS (
        SELECT r.id, r.game_id, s.player_id, s.operator_session_id, r.mode, r.status, r.stake_minor, r.payout_minor,
          s.currency, r.created_at, r.debit_id, s.shop_id, r.free_round_grant_id
        FROM rounds r JOIN game_sessions s ON s.id = r.session_id
        WHERE ${where}
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${roundBatch}
      )
      SELECT b.id::text AS round_id, b.game_id, b.player_id, b.operator_session_id, b.mode, b.status, b.stake_minor,
        b.payout_minor, b.currency, b.created_at, b.created_at::text AS created_at_exact, b.debit_id::text AS debit_id,
        b.shop_id, b.free_round_grant_id::text AS free_round_grant_id,
        t.transaction_id, t.kind, t.amount_minor, t.delivery_status
      FROM batch b LEFT JOIN LATERAL (
        SELECT l.id, l.transaction_id::text AS transaction_id, l.kind, l.amount_minor, d.status AS delivery_status
        FROM ledger_entries l LEFT JOIN webhook_deliveries d ON d.id = l.transaction_id::text
        WHERE l.round_id = b.id AND l.kind <> 'debit'
        OFFSET 0
      ) t ON true
      ORDER BY b.created_at DESC, b.id DESC, t.id`.pipe(Effect.map((found) => found.map(exportRow)))
    const roundRows = rows.filter((row, i) => i === 0 || rows[i - 1]?.round_id !== row.round_id)
    const others = rows.flatMap((row) =>
      row.transaction_id === null || row.kind === null || row.amount_minor === null ? [] : [{
        round_id: row.round_id,
        transaction_id: row.transaction_id,
        kind: row.kind,
        amount_minor: row.amount_minor,
        delivery_status: row.delivery_status,
        round_status: row.status,
        currency: row.currency
      }]
    )
    const last = roundRows.at(-1)
    const next = roundRows.length < roundBatch || last === undefined
      ? Option.none<Cursor>()
      : Option.some({ createdAt: last.created_at_exact, id: last.round_id })
    return [withTransactions(roundRows, others), next] as const
  }, timedOut)

  const roundStream = (merchantId: number, filter: RoundFilter) =>
    budget.streamWithin(
      merchantId,
      Stream.paginate<Cursor | undefined, readonly [RoundOf, ReadonlyArray<TransactionOf>], ReportTimedOut>(
        undefined,
        (after) => paced(after === undefined, budget.batch(merchantId)(batch(merchantId, filter, after)))
      ).pipe(Stream.rechunk(viewSlice), Stream.map(viewOf))
    )

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

  // JIT is off for the sums: on a day of 80,000 rounds its compilation cost more than a second and saved nothing
  // (bench/results/2026-11-23-reports-before-0010.md).
  const withoutJit = <A, E, R>(effect: Effect.Effect<A, E, R>) => sql.withTransaction(Effect.andThen(sql`SET LOCAL jit = off`, effect))

  const summary = Effect.fn("Reports.summary")(function*(
    merchantId: number,
    currency: CurrencyCode,
    range: SummaryFilter,
    groupBy: GroupBy,
    page: PageRequest
  ) {
    const rows = yield* withoutJit(
      summaryPageStatement(sql, { id: merchantId, currency }, range, groupKeys[groupBy], bySessions(groupBy, range), page)
    ).pipe(Effect.flatMap(decodeSummaryPage))
    const first = rows[0]
    const groups = rows.flatMap((row): Array<SummaryGroup> =>
      row.key === null || row.rounds === null || row.bets === null || row.wins === null || row.refunds === null ||
        row.free_wins === null
        ? []
        : [{ key: row.key, rounds: row.rounds, bets: row.bets, wins: row.wins, refunds: row.refunds, freeWins: row.free_wins }]
    )
    return {
      groups,
      groupCount: first?.groups ?? 0,
      total: {
        rounds: first?.total_rounds ?? 0,
        bets: first?.total_bets ?? 0n,
        wins: first?.total_wins ?? 0n,
        refunds: first?.total_refunds ?? 0n,
        freeWins: first?.total_free_wins ?? 0n
      }
    }
  }, timedOut, (effect, merchantId) => budget.within(merchantId)(effect))

  // The whole summary through a cursor of one read-only transaction on a reserved connection: the groups are built
  // once and read a batch per FETCH as the client takes them, so neither the gateway's memory nor a statement's
  // time grows with the number of groups. The connection is held until the stream ends, within the budget.
  const summaryStream = (merchantId: number, currency: CurrencyCode, range: SummaryFilter, groupBy: GroupBy) =>
    budget.streamWithin(
      merchantId,
      Stream.unwrap(Effect.gen(function*() {
        const connection = yield* sql.reserve
        yield* Effect.acquireRelease(
          connection.executeRaw("BEGIN READ ONLY", []),
          () => Effect.ignore(connection.executeRaw("ROLLBACK", []))
        )
        yield* connection.executeRaw("SET LOCAL jit = off", [])
        const [text, params] = sumsStatement(sql, [{ id: merchantId, currency }], range, groupKeys[groupBy], bySessions(groupBy, range))
          .compile()
        yield* connection.executeRaw(`DECLARE summary_groups NO SCROLL CURSOR FOR ${text}`, params)
        return Stream.paginate<boolean, SummaryGroup, ReportTimedOut>(true, (first) =>
          paced(first, budget.batch(merchantId)(connection.execute(`FETCH ${summaryBatch} FROM summary_groups`, [], undefined))).pipe(
            Effect.map((rows) => rows.map(exportGroup)),
            Effect.map((groups) => [groups, groups.length < summaryBatch ? Option.none() : Option.some(false)] as const),
            timedOut
          )).pipe(Stream.rechunk(viewSlice))
      }).pipe(timedOut))
    )

  // The summary's total per merchant (the sums grouped by merchant), its GGR as the summary gives it.
  const ggr = Effect.fn("Reports.ggr")(function*(
    merchants: ReadonlyArray<{ readonly id: number; readonly currency: CurrencyCode }>,
    range: ReportRange
  ) {
    // Each merchant once: a merchant listed twice would have its rounds counted twice.
    const unique = [...new Map(merchants.map((m) => [m.id, m])).values()]
    if (!Arr.isReadonlyArrayNonEmpty(unique)) return new Map<number, bigint>()
    const groups = yield* withoutJit(sumsStatement(sql, unique, range, "r.merchant_id::text", false)).pipe(
      Effect.flatMap(decodeSums)
    )
    return new Map(groups.map((group) => [Number(group.key), ggrOf(group)]))
  }, timedOut, budget.within(undefined))

  return Reports.of({ rounds, roundStream, transaction, summary, summaryStream, ggr })
})

/** The reports on the database of the `SqlClient`. */
export const layer: Layer.Layer<Reports, never, SqlClient> = Layer.effect(Reports, make())

/** The reports on the database of the `SqlClient`, within `limits` (ReportBudget). */
export const layerWithin = (limits: ReportBudget.ReportLimits): Layer.Layer<Reports, never, SqlClient> =>
  Layer.effect(Reports, make({ limits }))

/** The reports on the reports' own pool (`Database.ReportsDatabase`), within `limits`: what the server runs. */
export const layerOnReportsPool = (
  limits: ReportBudget.ReportLimits,
  exportPauseMs = 0
): Layer.Layer<Reports, never, ReportsDatabase> =>
  Layer.effect(
    Reports,
    Effect.gen(function*() {
      const client = yield* ReportsDatabase
      return yield* make({ limits, exportPauseMs }).pipe(Effect.provideService(SqlClient, client))
    })
  )
