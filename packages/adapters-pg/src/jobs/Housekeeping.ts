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

/** {@link purgeRedemptions} at start and every ten minutes, on every instance (deletes are idempotent). */
export const layer: Layer.Layer<never, never, SqlClient> = Layer.effectDiscard(
  purgeRedemptions.pipe(
    Effect.catchCause((cause) => Effect.logWarning("housekeeping failed", cause)),
    Effect.repeat(Schedule.spaced("10 minutes")),
    Effect.forkScoped
  )
)
