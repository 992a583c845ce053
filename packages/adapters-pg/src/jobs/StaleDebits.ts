import { CurrencyCode } from "@gateway/domain/Currency"
import * as Money from "@gateway/domain/Money"
import { RoundLinks } from "@gateway/domain/ports/RoundLinks"
import type { WalletTransaction } from "@gateway/domain/Wallet"
import { Duration, Effect, Layer, Option, Schedule, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { Fragment } from "effect/sql/Statement"
import { randomUUID } from "node:crypto"
import { refundRound } from "../db/RoundRows.ts"

const StaleRow = Schema.Struct({
  id: Schema.String,
  merchant_id: Schema.Int,
  stake_minor: Schema.BigInt,
  debit_id: Schema.String,
  player_id: Schema.String,
  operator_session_id: Schema.String,
  game_id: Schema.String,
  currency: CurrencyCode,
  shop_id: Schema.NullOr(Schema.String)
})
const decodeStale = Schema.decodeUnknownEffect(Schema.Array(StaleRow))

/** The links to rounds' details, when the process has them: refunds carry `roundDetailsUrl` (CONTRACT §10). */
export type Links = RoundLinks["Service"] | undefined

const refundOf = (row: typeof StaleRow.Type, links: Links): WalletTransaction => ({
  type: "transaction.refund",
  transactionId: randomUUID(),
  refTransactionId: row.debit_id,
  roundId: row.id,
  roundClosed: true,
  merchantId: row.merchant_id,
  playerId: row.player_id,
  sessionId: row.operator_session_id,
  gameId: row.game_id,
  amount: Money.make(row.stake_minor, row.currency),
  ...(links === undefined ? {} : { roundDetailsUrl: links.url(row.id) }),
  ...(row.shop_id === null ? {} : { shopId: row.shop_id })
})

const recoverOne = (sql: SqlClient, which: Fragment, links: Links) =>
  sql.withTransaction(Effect.gen(function*() {
    const [row] = yield* sql`
      SELECT r.id::text AS id, r.merchant_id, r.stake_minor, r.debit_id::text AS debit_id,
        s.player_id, s.operator_session_id, s.game_id, s.currency, s.shop_id
      FROM rounds r JOIN game_sessions s ON s.id = r.session_id
      WHERE r.status = 'debiting' AND ${which}
      ORDER BY r.created_at
      LIMIT 1
      FOR UPDATE OF r SKIP LOCKED`.pipe(Effect.flatMap(decodeStale))
    if (row === undefined) return undefined
    const refund = refundOf(row, links)
    yield* refundRound(sql, row.id, refund)
    return { roundId: row.id, queued: `refund ${refund.transactionId} of debit ${row.debit_id} queued` }
  }))

/**
 * Repairs rounds left `debiting` for longer than `olderThanSeconds` (the
 * process died between sending the debit and recording its answer): each is
 * failed and a refund of its stake, with a new transaction id and
 * `refTransactionId` = the debit, is written to the ledger and queued. One
 * round per transaction, locked `FOR UPDATE SKIP LOCKED`, so concurrent
 * sweepers on several instances never refund a round twice. The number of
 * rounds refunded.
 */
export const recoverStaleDebits = (olderThanSeconds: number): Effect.Effect<number, never, SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const links = Option.getOrUndefined(yield* Effect.serviceOption(RoundLinks))
    let count = 0
    const stale = sql`r.created_at < now() - make_interval(secs => ${olderThanSeconds}::float8)`
    for (;;) {
      const refunded = yield* recoverOne(sql, stale, links)
      if (refunded === undefined) return count
      yield* Effect.logWarning(`round ${refunded.roundId} was left debiting; ${refunded.queued}`)
      count++
    }
  }).pipe(Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }), Effect.withSpan("RoundLedger.recoverStaleDebits"))

/**
 * Repairs one round its own process gave up on (its settlement or failure
 * could not be written: the database was unreachable) as the sweep repairs a
 * stale one, without waiting for it to be stale: failed, and a refund of its
 * stake queued, if it is still `debiting` and no one holds it. What was
 * queued, if anything; a database failure is the error, to try again.
 */
export const recoverRound = (sql: SqlClient, roundId: string, links: Links): Effect.Effect<string | undefined, SqlError> =>
  recoverOne(sql, sql`r.id = ${roundId}`, links).pipe(
    Effect.map((refunded) => refunded?.queued),
    Effect.catchTag("SchemaError", Effect.die)
  )

/** When a round counts as stale, and how often to look. */
export interface RecoveryOptions {
  readonly olderThanSeconds: number
  readonly every: Duration.Input
}

/** Runs {@link recoverStaleDebits} at start and then every `every`, for the life of the layer; failures are logged. */
export const layerRecovery = (options: RecoveryOptions): Layer.Layer<never, never, SqlClient> =>
  Layer.effectDiscard(
    recoverStaleDebits(options.olderThanSeconds).pipe(
      Effect.catchCause((cause) => Effect.logError("stale debit recovery failed", cause)),
      Effect.repeat(Schedule.spaced(options.every)),
      Effect.forkScoped
    )
  )

/** The default margin after the wallet's time-out before a `debiting` round counts as stale (`STALE_DEBIT_MARGIN_SECONDS`). */
export const staleMarginSeconds = 60

/**
 * {@link layerRecovery} with rounds stale after the wallet call's time-out
 * (`WEBHOOK_TIMEOUT_MS`) plus `marginSeconds` (default
 * {@link staleMarginSeconds}): by then no live process can still be waiting
 * for the debit's answer. It looks every 30 seconds, or every margin when
 * that is shorter.
 */
export const layerAfterTimeout = (
  walletTimeoutMs: number,
  marginSeconds: number = staleMarginSeconds
): Layer.Layer<never, never, SqlClient> =>
  layerRecovery({
    olderThanSeconds: Math.ceil(walletTimeoutMs / 1000) + marginSeconds,
    every: Duration.seconds(Math.min(30, marginSeconds))
  })
