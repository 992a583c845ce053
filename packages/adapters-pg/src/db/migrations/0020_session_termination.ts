import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Sessions the operator ended (CONTRACT §12): `ended_reason` says why a session that is no longer live ended
 * (`terminated`; NULL for one that is live or expired idle), `ended_at` when. Termination also sets `expires_at`
 * to the moment it happened, so the liveness every statement already checks (`expires_at > now()`: the round's
 * nonce, authentication) refuses the session at once, on every instance, with no new condition on the bet path.
 * The session's autoplay (CONTRACT §12), enforced by the server: the rounds it has left, its loss limit and the
 * net loss of its rounds so far (minor units); NULL until autoplay is started.
 * Adding nullable columns without a default rewrites nothing.
 */
export const m0020_session_termination = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    ALTER TABLE game_sessions
      ADD COLUMN ended_at timestamptz,
      ADD COLUMN ended_reason text CHECK (ended_reason IN ('terminated')),
      ADD CHECK ((ended_at IS NULL) = (ended_reason IS NULL)),
      ADD COLUMN autoplay_left integer,
      ADD COLUMN autoplay_loss_limit_minor bigint,
      ADD COLUMN autoplay_lost_minor bigint`
})
