import { CurrencyCode } from "@gateway/domain/Currency"
import * as Money from "@gateway/domain/Money"
import type { PendingRound } from "@gateway/domain/ports/RoundLedger"
import { RoundLedger } from "@gateway/domain/ports/RoundLedger"
import { RoundNotFound, RoundStatus, RoundView } from "@gateway/domain/Round"
import type { WalletTransaction } from "@gateway/domain/Wallet"
import { Duration, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { isUuid } from "./db/Uuid.ts"
import { SessionExpired } from "@gateway/domain/GameSession"
import type { RoundSeed } from "@gateway/domain/Fairness"
import type * as Statement from "effect/sql/Statement"
import { offset, type PageRequest } from "@gateway/domain/Paging"
import * as Outbox from "./db/Outbox.ts"
import { close, refundRound, settleRound } from "./db/RoundRows.ts"
import { recoverRound } from "./jobs/StaleDebits.ts"

/** How often rounds left open by a database failure are tried again. */
const repairEvery = Duration.millis(250)

const ViewRow = Schema.Struct({
  round_id: Schema.String,
  game_id: Schema.String,
  mode: Schema.Literals(["real", "demo"]),
  status: RoundStatus,
  stake_minor: Schema.BigInt,
  selection: Schema.String,
  outcome: Schema.NullOr(Schema.String),
  payout_minor: Schema.NullOr(Schema.BigInt),
  created_at: Schema.DateTimeUtcFromDate,
  currency: CurrencyCode,
  server_seed_hash: Schema.NullOr(Schema.String),
  client_seed: Schema.NullOr(Schema.String),
  nonce: Schema.NullOr(Schema.Number),
  server_seed: Schema.NullOr(Schema.String)
})
const decodeViews = Schema.decodeUnknownEffect(Schema.Array(ViewRow))

/** The seeds a round draws from, as `begin` reads them (its own statement's columns, not decoded). */
interface SeedRow {
  readonly server_seed: string
  readonly server_seed_hash: string
  readonly client_seed: string
  readonly nonce: number
}

const seedOf = (row: SeedRow): RoundSeed => ({
  serverSeed: row.server_seed,
  serverSeedHash: row.server_seed_hash,
  clientSeed: row.client_seed,
  nonce: row.nonce
})
const decodeTotals = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ total: Schema.Number })))

const viewOf = (row: typeof ViewRow.Type): RoundView => {
  const format = (minor: bigint) => Money.format(Money.make(minor, row.currency))
  return new RoundView({
    roundId: row.round_id,
    gameId: row.game_id,
    mode: row.mode,
    status: row.status,
    stake: format(row.stake_minor),
    selection: JSON.parse(row.selection),
    ...(row.outcome === null ? {} : { outcome: JSON.parse(row.outcome) }),
    ...(row.payout_minor === null ? {} : { payout: format(row.payout_minor) }),
    createdAt: row.created_at,
    ...(row.server_seed_hash === null || row.client_seed === null || row.nonce === null ? {} : {
      fairness: {
        serverSeedHash: row.server_seed_hash,
        clientSeed: row.client_seed,
        nonce: row.nonce,
        ...(row.server_seed === null ? {} : { serverSeed: row.server_seed })
      }
    })
  })
}

/**
 * {@link RoundLedger} on PostgreSQL: `rounds`, the append-only
 * `ledger_entries`, and the outbox `webhook_deliveries`, each money movement
 * in one transaction with the message it causes. A repeated `settle`,
 * `refuse` or `fail` of a round is a defect and books nothing: the round is
 * no longer `debiting` and the transaction ids are unique in the ledger and
 * the outbox.
 */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient

  /**
   * Rounds whose settlement or failure could not be written after their debit went out (the database was
   * unreachable or failed): no one else will close them, so each is refunded as soon as the database answers
   * again ({@link recoverRound}, tried every {@link repairEvery}), instead of by the stale-debit sweep a minute
   * or more later. A round that was closed after all is left as it is.
   */
  const orphans = new Set<string>()
  const orphaned = (roundId: string) => Effect.sync(() => void orphans.add(roundId))
  const repair = Effect.suspend(() => Effect.forEach([...orphans], (roundId) =>
    recoverRound(sql, roundId).pipe(
      Effect.flatMap((queued) => {
        orphans.delete(roundId)
        return queued === undefined
          ? Effect.void
          : Effect.logWarning(`round ${roundId} could not be closed; once the database answered again, ${queued}`)
      }),
      Effect.catchCause(() => Effect.void)
    ), { discard: true }))
  yield* Effect.suspend(() => orphans.size === 0 ? Effect.void : repair).pipe(
    Effect.delay(repairEvery),
    Effect.forever,
    Effect.forkScoped
  )

  // The session's row is locked by the nonce's UPDATE, as by `GameSessionRepo.nextSeed`: a seed rotation waits.
  const begin = Effect.fn("RoundLedger.begin")(function*(round: PendingRound) {
    if (round.debit.roundId !== round.roundId) return yield* Effect.die(new Error("the debit is of another round"))
    const [seed] = yield* sql<SeedRow>`
      WITH seed AS (
        UPDATE game_sessions SET nonce = nonce + 1
        WHERE id = ${round.sessionId} AND expires_at > now()
        RETURNING server_seed, server_seed_hash, client_seed, nonce - 1 AS nonce
      ), begun AS (
        INSERT INTO rounds (id, session_id, merchant_id, game_id, mode, stake_minor, selection, status, debit_id,
          server_seed_hash, client_seed, nonce)
        SELECT ${round.roundId}, ${round.sessionId}, ${round.debit.merchantId}, ${round.gameId}, 'real', ${round.stake},
          ${round.selection}, 'debiting', ${round.debit.transactionId}, server_seed_hash, client_seed, nonce
        FROM seed
      )
      SELECT server_seed, server_seed_hash, client_seed, nonce::float8 AS nonce FROM seed`
    if (seed === undefined) return yield* new SessionExpired()
    return seedOf(seed)
  }, Effect.catchTag("SqlError", Effect.die))

  const settle = Effect.fn("RoundLedger.settle")(function*(
    roundId: string,
    outcome: string,
    payout: bigint,
    credit: WalletTransaction
  ) {
    if (credit.roundId !== roundId) return yield* Effect.die(new Error("the credit is of another round"))
    const message = yield* Outbox.ofTransaction(credit)
    const [settled] = yield* settleRound(sql, roundId, outcome, payout, credit, message).pipe(
      Effect.onError(() => orphaned(roundId))
    )
    if (settled === undefined) {
      return yield* Effect.die(new Error(`round ${roundId} is not debiting: it was closed already or never begun`))
    }
  }, Effect.catchTag("SqlError", Effect.die))

  const refuse = Effect.fn("RoundLedger.refuse")(function*(roundId: string) {
    yield* close(sql, roundId, "refused")
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const fail = Effect.fn("RoundLedger.fail")(function*(roundId: string, refund: WalletTransaction) {
    if (refund.roundId !== roundId) return yield* Effect.die(new Error("the refund is of another round"))
    yield* sql.withTransaction(refundRound(sql, roundId, refund)).pipe(Effect.onError(() => orphaned(roundId)))
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  // A seed is shown once revealed: by a rotation, or because its session has ended.
  const views = (where: Statement.Fragment, limit: number, skip = 0) =>
    sql`
      SELECT r.id::text AS round_id, r.game_id, r.mode, r.status, r.stake_minor, r.selection, r.outcome, r.payout_minor,
        r.created_at, s.currency, r.server_seed_hash, r.client_seed, r.nonce::float8 AS nonce,
        coalesce(rs.server_seed,
          CASE WHEN s.expires_at <= now() AND s.server_seed_hash = r.server_seed_hash THEN s.server_seed END) AS server_seed
      FROM rounds r JOIN game_sessions s ON s.id = r.session_id
      LEFT JOIN revealed_seeds rs ON rs.server_seed_hash = r.server_seed_hash
      WHERE ${where}
      ORDER BY r.created_at DESC, r.nonce DESC
      LIMIT ${limit} OFFSET ${skip}`.pipe(Effect.flatMap(decodeViews), Effect.map((rows) => rows.map(viewOf)))

  const find = Effect.fn("RoundLedger.find")(function*(sessionId: string, roundId: string) {
    if (!isUuid(roundId)) return yield* new RoundNotFound({ roundId })
    const [view] = yield* views(sql`r.session_id = ${sessionId} AND r.id = ${roundId}`, 1)
    if (view === undefined) return yield* new RoundNotFound({ roundId })
    return view
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const history = Effect.fn("RoundLedger.history")(function*(sessionId: string, page: PageRequest) {
    const [counted] = yield* sql`SELECT count(*)::float8 AS total FROM rounds WHERE session_id = ${sessionId}`.pipe(
      Effect.flatMap(decodeTotals)
    )
    const rounds = yield* views(sql`r.session_id = ${sessionId}`, page.limit, offset(page))
    return { rounds, total: counted?.total ?? 0 }
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  return RoundLedger.of({ begin, settle, refuse, fail, find, history })
})

/** The ledger on the database of the `SqlClient`. */
export const layer: Layer.Layer<RoundLedger, never, SqlClient> = Layer.effect(RoundLedger, make)

