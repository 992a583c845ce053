import { AutoplayLimitReached } from "@gateway/domain/Autoplay"
import type { SqlClient } from "effect/sql/SqlClient"

/**
 * A session's autoplay (CONTRACT §12), kept on its `game_sessions` row (migration 0020): the rounds it has left,
 * its loss limit and the net loss of its rounds so far, in minor units.
 */

/** Starts (or replaces) the session's autoplay. */
export const start = (sql: SqlClient) =>
  function*(sessionId: string, rounds: number, lossLimitMinor: bigint) {
    yield* sql`
      UPDATE game_sessions SET autoplay_left = ${rounds}, autoplay_loss_limit_minor = ${lossLimitMinor},
        autoplay_lost_minor = 0
      WHERE id = ${sessionId}`
  }

/** Takes one round, atomically: none left, the loss limit reached, or no autoplay → AutoplayLimitReached. */
export const take = (sql: SqlClient) =>
  function*(sessionId: string) {
    const rows = yield* sql`
      UPDATE game_sessions SET autoplay_left = autoplay_left - 1
      WHERE id = ${sessionId} AND autoplay_left > 0 AND autoplay_lost_minor < autoplay_loss_limit_minor
      RETURNING id`
    if (rows.length === 0) return yield* new AutoplayLimitReached()
  }

/** Adds a round's net loss; a run of wins could take it below any bigint, so it is kept at −10^18 or more. */
export const countLoss = (sql: SqlClient) =>
  function*(sessionId: string, lossMinor: bigint) {
    yield* sql`
      UPDATE game_sessions
      SET autoplay_lost_minor = greatest(autoplay_lost_minor::numeric + ${String(lossMinor)}::numeric, -1e18)::bigint
      WHERE id = ${sessionId} AND autoplay_lost_minor IS NOT NULL`
  }
