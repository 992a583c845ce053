import { sessionEndedBody } from "@gateway/domain/Callback"
import { CurrencyCode } from "@gateway/domain/Currency"
import { DateTime, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as Outbox from "../db/Outbox.ts"

/** Sessions looked at in one transaction of the sweep. */
const batchSize = 500

const EndedRow = Schema.Struct({
  id: Schema.String,
  expires_at: Schema.String,
  merchant_id: Schema.Int,
  player_id: Schema.String,
  operator_session_id: Schema.String,
  game_id: Schema.String,
  currency: CurrencyCode,
  shop_id: Schema.NullOr(Schema.String),
  reported: Schema.Boolean,
  terminated: Schema.Boolean,
  rounds: Schema.NullOr(Schema.Number),
  bets: Schema.NullOr(Schema.BigInt),
  wins: Schema.NullOr(Schema.BigInt)
})
const decodeEnded = Schema.decodeUnknownEffect(Schema.Array(EndedRow))
const decodeMark = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ swept_to: Schema.String, swept_id: Schema.String })))

/**
 * Queues `session.ended` (CONTRACT §10) for the real sessions whose idle
 * expiry passed at least `marginSeconds` ago (reason `expired`), or that the
 * operator ended (`terminated`: termination sets the expiry to its moment), of merchants with a
 * `callbackUrl`, each with its totals (rounds settled, their stakes and
 * payouts): one batch in one transaction, in the order of expiry from where
 * the last sweep stopped (`session_end_sweep`, locked `SKIP LOCKED`, so one
 * instance sweeps at a time and each session is reported once). The margin
 * outlasts any statement that could still push an expiry forward (a round
 * that began before it). The number of sessions looked at.
 */
export const sweep = (marginSeconds: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      const [mark] = yield* sql`
        SELECT swept_to::text AS swept_to, swept_id::text AS swept_id FROM session_end_sweep FOR UPDATE SKIP LOCKED`
        .pipe(Effect.flatMap(decodeMark))
      if (mark === undefined) return 0
      const rows = yield* sql`
        SELECT s.id::text AS id, s.expires_at::text AS expires_at, s.merchant_id, s.player_id, s.operator_session_id,
          s.game_id, s.currency, s.shop_id, t.rounds IS NOT NULL AS reported, s.ended_reason IS NOT DISTINCT FROM 'terminated' AS terminated,
          t.rounds, t.bets, t.wins
        FROM game_sessions s
        JOIN merchant_settings m ON m.merchant_id = s.merchant_id
        LEFT JOIN LATERAL (
          -- A free round's stake is the grant's, never debited: counted as a round and its win, not as a bet.
          SELECT count(*)::float8 AS rounds,
            coalesce(sum(r.stake_minor) FILTER (WHERE r.free_round_grant_id IS NULL), 0)::bigint AS bets,
            coalesce(sum(r.payout_minor), 0)::bigint AS wins
          FROM rounds r WHERE r.session_id = s.id AND r.status = 'settled'
        ) t ON s.mode = 'real' AND m.callback_url IS NOT NULL
        WHERE (s.expires_at, s.id) > (${mark.swept_to}::timestamptz, ${mark.swept_id}::uuid)
          AND s.expires_at <= now() - make_interval(secs => ${marginSeconds})
        ORDER BY s.expires_at, s.id
        LIMIT ${batchSize}`.pipe(Effect.flatMap(decodeEnded))
      const last = rows.at(-1)
      if (last === undefined) return 0
      const timestamp = DateTime.formatIso(yield* DateTime.now)
      const messages = rows.filter((row) => row.reported).map((row) =>
        Outbox.ofCallback(row.merchant_id, sessionEndedBody(
          {
            merchantId: row.merchant_id,
            playerId: row.player_id,
            sessionId: row.operator_session_id,
            gameId: row.game_id,
            currency: row.currency,
            ...(row.shop_id === null ? {} : { shopId: row.shop_id })
          },
          row.terminated ? "terminated" : "expired",
          { rounds: row.rounds ?? 0, bets: row.bets ?? 0n, wins: row.wins ?? 0n },
          timestamp
        ))
      )
      if (messages.length > 0) {
        yield* sql`
          INSERT INTO webhook_deliveries (id, merchant_id, type, body)
          SELECT * FROM unnest(${messages.map((m) => m.id)}::text[], ${messages.map((m) => m.merchantId)}::integer[],
            ${messages.map((m) => m.type)}::text[], ${messages.map((m) => m.body)}::text[])`
      }
      yield* sql`UPDATE session_end_sweep SET swept_to = ${last.expires_at}::timestamptz, swept_id = ${last.id}::uuid`
      return rows.length
    }))
  }).pipe(Effect.orDie, Effect.withSpan("SessionEnds.sweep"))

/**
 * The margin after a session's expiry before it is reported ended, and how
 * often the sweep runs: 10 s (longer than a statement may run), shorter for
 * sessions that idle out sooner (half their idle time, at least 1 s).
 */
export const marginFor = (idleSeconds: number): number => Math.min(10, Math.max(1, Math.floor(idleSeconds / 2)))

/** {@link sweep} every margin, batches back to back while they are full; failures are logged. */
export const layer = (idleSeconds: number): Layer.Layer<never, never, SqlClient> => {
  const margin = marginFor(idleSeconds)
  const drain: Effect.Effect<void, never, SqlClient> = Effect.flatMap(sweep(margin), (n) => n >= batchSize ? drain : Effect.void)
  return Layer.effectDiscard(
    drain.pipe(
      Effect.catchCause((cause) => Effect.logWarning("the sweep of ended sessions failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.seconds(margin))),
      Effect.forkScoped
    )
  )
}
