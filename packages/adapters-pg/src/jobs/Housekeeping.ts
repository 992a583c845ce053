import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Launch-token redemptions older than this are deleted: a launch token lives
 * at most an hour (`LAUNCH_TOKEN_TTL_SECONDS` ≤ 3600), so by then its `jti`
 * can no longer be presented and the row only takes space.
 */
export const redemptionRetentionSeconds = 2 * 3600

/** Deletes redemptions past {@link redemptionRetentionSeconds}; the number deleted. */
export const purgeRedemptions = Effect.gen(function*() {
  const sql = yield* SqlClient
  const rows = yield* sql`
    DELETE FROM launch_redemptions
    WHERE redeemed_at < now() - make_interval(secs => ${redemptionRetentionSeconds})
    RETURNING 1`
  return rows.length
}).pipe(Effect.orDie)

/**
 * Deletes what the back office no longer needs (migration 0016): sign-in
 * failure counts a day old (a day without failures starts the count again
 * anyway), expired codes, and sessions past the longest lifetimes the
 * settings allow (a day idle, 30 days old); the number deleted.
 */
export const purgeBackoffice = Effect.gen(function*() {
  const sql = yield* SqlClient
  const failures = yield* sql`DELETE FROM backoffice_login_failures WHERE last_failed_at < now() - interval '1 day' RETURNING 1`
  const codes = yield* sql`DELETE FROM backoffice_codes WHERE expires_at < now() RETURNING 1`
  const sessions = yield* sql`
    DELETE FROM backoffice_sessions
    WHERE last_seen_at < now() - interval '1 day' OR created_at < now() - interval '30 days'
    RETURNING 1`
  return failures.length + codes.length + sessions.length
}).pipe(Effect.orDie)

/**
 * Why the outbox will not be vacuumed, if it will not: the server's
 * `autovacuum` is off, or the table's own `autovacuum_enabled`. Each message
 * leaves two dead row versions (its claim and its mark); unvacuumed, they pile
 * up under the claims' index and every claim walks past them (in the bench,
 * the database's CPU per delivered message tripled).
 */
export const outboxVacuumOff = Effect.gen(function*() {
  const sql = yield* SqlClient
  const [row] = yield* sql<{ readonly server: string; readonly table: boolean }>`
    SELECT current_setting('autovacuum') AS server,
      NOT coalesce('autovacuum_enabled=false' = ANY(reloptions) OR 'autovacuum_enabled=off' = ANY(reloptions), false) AS table
    FROM pg_class WHERE oid = 'webhook_deliveries'::regclass`
  if (row === undefined) return undefined
  if (row.server !== "on") return "autovacuum is off on this PostgreSQL server"
  return row.table ? undefined : "autovacuum is disabled for the table webhook_deliveries"
}).pipe(Effect.orDie)

const logFailure = Effect.catchCause((cause) => Effect.logWarning("housekeeping failed", cause))

/** Warns when {@link outboxVacuumOff} says why the outbox will not be vacuumed. */
const warnUnlessVacuumed = Effect.flatMap(outboxVacuumOff, (reason) =>
  reason === undefined ? Effect.void : Effect.logWarning(
    `${reason}: the webhook outbox leaves two dead row versions per message, and claims slow down as they pile up; ` +
      "turn autovacuum on or VACUUM webhook_deliveries regularly"
  ))

/**
 * At start, a warning when the outbox will not be vacuumed; then
 * {@link purgeRedemptions} and {@link purgeBackoffice} at start and every ten
 * minutes, on every instance (deletes are idempotent).
 */
export const layer: Layer.Layer<never, never, SqlClient> = Layer.effectDiscard(
  Effect.andThen(
    logFailure(warnUnlessVacuumed),
    Effect.andThen(purgeRedemptions, purgeBackoffice).pipe(logFailure, Effect.repeat(Schedule.spaced("10 minutes")))
  ).pipe(Effect.forkScoped)
)
