import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The RTP in force in a session (issue 27: a change of a game's profit setting applies to sessions opened after
 * it, never mid-session): `{gameId: "97.50", …}` for every game the session may play, written when it opens and
 * never changed. NULL for sessions opened before this migration: they play at the merchant's current settings.
 * A nullable column without a default rewrites nothing.
 */
export const m0022_session_rtp = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE game_sessions ADD COLUMN rtp jsonb`
})
