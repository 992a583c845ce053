import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The operator's round list filtered by `playerId` (CONTRACT §8) finds the player's sessions by this index, then
 * their rounds by `rounds_session_idx`, instead of reading every round of the merchant's period and its session
 * to compare player ids: with half a million rounds, a dozen such requests (even for a player that does not exist)
 * kept the database busy for seconds and starved other merchants' bets (issue 21, finding 2).
 *
 * A plain `CREATE INDEX`: migrations run in one transaction (under the migrators' advisory lock), where
 * `CONCURRENTLY` is refused. It blocks writes to `game_sessions` (launches) while it builds: about a second per
 * million sessions; on a larger table, create `game_sessions_merchant_player_idx` by hand with `CONCURRENTLY`
 * before upgrading — this migration then finds it and does nothing.
 */
export const m0012_player_rounds_index = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`CREATE INDEX IF NOT EXISTS game_sessions_merchant_player_idx ON game_sessions (merchant_id, player_id)`
})
