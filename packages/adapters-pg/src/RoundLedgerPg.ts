import { CurrencyCode } from "@gateway/domain/Currency"
import * as Money from "@gateway/domain/Money"
import type { PendingRound, RecallKey } from "@gateway/domain/ports/RoundLedger"
import { RoundLedger } from "@gateway/domain/ports/RoundLedger"
import { type SettledRound, roundSettledBody } from "@gateway/domain/Callback"
import { RoundLinks } from "@gateway/domain/ports/RoundLinks"
import { RoundDetails, RoundNotFound, RoundStatus, RoundView } from "@gateway/domain/Round"
import type { MerchantId } from "@gateway/domain/Merchant"
import type { WalletTransaction } from "@gateway/domain/Wallet"
import { DateTime, Duration, Effect, Exit, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { isUuid } from "./db/Uuid.ts"
import { whyNotBegun } from "./db/SessionEnd.ts"
import type { RoundSeed } from "@gateway/domain/Fairness"
import type * as Statement from "effect/sql/Statement"
import { offset, type PageRequest } from "@gateway/domain/Paging"
import { OutboxHandoff } from "./db/Handoff.ts"
import * as Outbox from "./db/Outbox.ts"
import * as Batch from "./db/Batch.ts"
import { beginRounds, close, refundRound, type SeedRow, settleRounds, type SettlingRound } from "./db/RoundRows.ts"
import { recoverRound } from "./jobs/StaleDebits.ts"

/**
 * At most this many rounds in one statement, and one such statement at a time of each kind (begin, settle): the
 * rounds that arrive while one runs gather for the next. Four at a time (each round alone in its own statement
 * while a lane was free) cost the database twice the transactions and a third more CPU a round under load, and
 * served fewer rounds a second (bench/README.md, "The sixth pass").
 */
const batchItems = 64
const batchLanes = 1

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

/** Places in the handoff for `count` messages, all or none. */
const reserveAll = (handoff: OutboxHandoff["Service"], count: number): boolean => {
  for (let i = 0; i < count; i++) {
    if (!handoff.reserve()) {
      for (let j = 0; j < i; j++) handoff.cancel()
      return false
    }
  }
  return true
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
  const handoff = Option.getOrUndefined(yield* Effect.serviceOption(OutboxHandoff))
  // Without links (tests of the ledger alone), credits and refunds carry no `roundDetailsUrl`.
  const links = Option.getOrUndefined(yield* Effect.serviceOption(RoundLinks))
  const linked = (tx: WalletTransaction): WalletTransaction =>
    links === undefined ? tx : { ...tx, roundDetailsUrl: links.url(tx.roundId) }

  /**
   * Rounds whose settlement or failure could not be written after their debit went out (the database was
   * unreachable or failed): no one else will close them, so each is refunded as soon as the database answers
   * again ({@link recoverRound}, tried every {@link repairEvery}), instead of by the stale-debit sweep a minute
   * or more later. A round that was closed after all is left as it is.
   */
  const orphans = new Set<string>()
  const orphaned = (roundId: string) => Effect.sync(() => void orphans.add(roundId))
  const repair = Effect.suspend(() => Effect.forEach([...orphans], (roundId) =>
    recoverRound(sql, roundId, links).pipe(
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

  // Rounds begin and settle in batches (`db/Batch.ts`): under load, concurrent rounds share one statement and
  // one commit; a round alone runs at once in a batch of its own.
  const beginBatch = yield* Batch.make({
    maxItems: batchItems,
    lanes: batchLanes,
    // The session's row is locked by the nonce's UPDATE (as by `GameSessionRepo.nextSeed`: a seed rotation
    // waits): one round of a session per batch, and none while another of its rounds begins.
    key: (round: PendingRound) => round.sessionId,
    run: (rounds) => Effect.map(beginRounds(sql, rounds), (rows) => {
      const byRound = new Map(rows.map((row) => [row.round_id, row]))
      return rounds.map((round) => byRound.get(round.roundId))
    })
  })
  const begin = Effect.fnUntraced(function*(round: PendingRound) {
    if (round.debit.roundId !== round.roundId) return yield* Effect.die(new Error("the debit is of another round"))
    const seed = yield* beginBatch(round)
    if (seed === undefined) return yield* whyNotBegun(sql, round.sessionId, round.autoplay === true)
    return seedOf(seed)
  }, Effect.catchTag("SqlError", Effect.die))

  const settleBatch = yield* Batch.make({
    maxItems: batchItems,
    lanes: batchLanes,
    key: (round: SettlingRound) => round.roundId,
    run: (rounds) => Effect.map(settleRounds(sql, rounds), (rows) => {
      const settled = new Set(rows.map((row) => row.id))
      return rounds.map((round) => settled.has(round.roundId))
    })
  })

  const settle = Effect.fnUntraced(function*(
    roundId: string,
    outcome: string,
    payout: bigint,
    unlinked: WalletTransaction,
    reported?: SettledRound
  ) {
    if (unlinked.roundId !== roundId) return yield* Effect.die(new Error("the credit is of another round"))
    const credit = linked(unlinked)
    const message = yield* Outbox.ofTransaction(credit)
    const callback = reported === undefined ? undefined : Outbox.ofCallback(
      credit.merchantId,
      roundSettledBody(reported, credit.roundDetailsUrl ?? "", DateTime.formatIso(yield* DateTime.now))
    )
    const messages = callback === undefined ? [message] : [message, callback]
    // The credit (and the round's callback) go to this process's worker right after the commit, leased to it
    // (`db/Handoff.ts`), when the handoff has room for all; otherwise they are queued for any worker's claim.
    const handing = handoff !== undefined && reserveAll(handoff, messages.length) ? handoff : undefined
    const settled = yield* settleBatch({
      roundId,
      outcome,
      payout,
      credit,
      message,
      callback,
      leaseSeconds: handing && handing.leaseMs / 1000
    }).pipe(Effect.onExit((exit) => {
      if (handing === undefined) return Effect.void
      const committed = Exit.isSuccess(exit) && exit.value
      return committed
        ? Effect.map(DateTime.now, (createdAt) => {
          for (const queued of messages) {
            handing.hand({
              id: queued.id,
              merchantId: credit.merchantId as MerchantId, // the merchant's own id, as the round read it
              type: queued.type,
              body: queued.body,
              attempts: 1,
              createdAt
            })
          }
        })
        : Effect.sync(() => messages.forEach(handing.cancel))
    }), Effect.onError(() => orphaned(roundId)))
    if (!settled) {
      return yield* Effect.die(new Error(`round ${roundId} is not debiting: it was closed already or never begun`))
    }
  }, Effect.catchTag("SqlError", Effect.die))

  const refuse = Effect.fn("RoundLedger.refuse")(function*(roundId: string) {
    yield* close(sql, roundId, "refused")
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const fail = Effect.fn("RoundLedger.fail")(function*(roundId: string, refund: WalletTransaction) {
    if (refund.roundId !== roundId) return yield* Effect.die(new Error("the refund is of another round"))
    yield* sql.withTransaction(refundRound(sql, roundId, linked(refund))).pipe(Effect.onError(() => orphaned(roundId)))
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  // A seed is shown once revealed: by a rotation, or because its session has ended.
  const viewRows = (where: Statement.Fragment, limit: number, skip = 0) =>
    sql`
      SELECT r.id::text AS round_id, r.game_id, r.mode, r.status, r.stake_minor, r.selection, r.outcome, r.payout_minor,
        r.created_at, s.currency, r.server_seed_hash, r.client_seed, r.nonce::float8 AS nonce,
        coalesce(rs.server_seed,
          CASE WHEN s.expires_at <= now() AND s.server_seed_hash = r.server_seed_hash THEN s.server_seed END) AS server_seed
      FROM rounds r JOIN game_sessions s ON s.id = r.session_id
      LEFT JOIN revealed_seeds rs ON rs.server_seed_hash = r.server_seed_hash
      WHERE ${where}
      ORDER BY r.created_at DESC, r.nonce DESC
      LIMIT ${limit} OFFSET ${skip}`.pipe(Effect.flatMap(decodeViews))
  const views = (where: Statement.Fragment, limit: number, skip = 0) =>
    Effect.map(viewRows(where, limit, skip), (rows) => rows.map(viewOf))

  const find = Effect.fn("RoundLedger.find")(function*(sessionId: string, roundId: string) {
    if (!isUuid(roundId)) return yield* new RoundNotFound({ roundId })
    const [view] = yield* views(sql`r.session_id = ${sessionId} AND r.id = ${roundId}`, 1)
    if (view === undefined) return yield* new RoundNotFound({ roundId })
    return view
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const details = Effect.fn("RoundLedger.details")(function*(roundId: string) {
    if (!isUuid(roundId)) return yield* new RoundNotFound({ roundId })
    const [row] = yield* viewRows(sql`r.id = ${roundId}`, 1)
    if (row === undefined) return yield* new RoundNotFound({ roundId })
    return new RoundDetails({ ...viewOf(row), currency: row.currency })
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const history = Effect.fn("RoundLedger.history")(function*(sessionId: string, page: PageRequest) {
    const [counted] = yield* sql`SELECT count(*)::float8 AS total FROM rounds WHERE session_id = ${sessionId}`.pipe(
      Effect.flatMap(decodeTotals)
    )
    const rounds = yield* views(sql`r.session_id = ${sessionId}`, page.limit, offset(page))
    return { rounds, total: counted?.total ?? 0 }
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  // Game recall: the player's latest sessions of the mode (game_sessions_player_recent_idx, migration 0023), at most
  // `limit` rounds of the game from each (rounds_session_idx, newest first), then the newest `limit` of those.
  const recall = Effect.fn("RoundLedger.recall")(function*(key: RecallKey, limit: number) {
    const ids = yield* sql<{ readonly id: string }>`
      SELECT r.id::text AS id
      FROM (SELECT id FROM game_sessions
            WHERE merchant_id = ${key.merchantId} AND player_id = ${key.playerId} AND mode = ${key.mode}
            ORDER BY created_at DESC LIMIT ${recallSessions}) s
      CROSS JOIN LATERAL (SELECT id, created_at, nonce FROM rounds WHERE session_id = s.id AND game_id = ${key.gameId}
            ORDER BY created_at DESC LIMIT ${limit}) r
      ORDER BY r.created_at DESC, r.nonce DESC
      LIMIT ${limit}`
    return ids.length === 0 ? [] : yield* views(sql`r.id IN ${sql.in(ids.map((row) => row.id))}`, limit)
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  return RoundLedger.of({ begin, settle, refuse, fail, find, details, history, recall })
})

/** How many of a player's most recent sessions game recall looks in. */
export const recallSessions = 50

/** The ledger on the database of the `SqlClient`. */
export const layer: Layer.Layer<RoundLedger, never, SqlClient> = Layer.effect(RoundLedger, make)

