import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Game recall across sessions (CONTRACT §6) reads a player's most recent sessions of a mode at a merchant:
 * this index gives the 50 newest in order, however many the player has had (without it, every session of the
 * player is read and sorted: 22 ms cold for 5,000). Only a launch writes it: a bet updates none of its columns,
 * so bets keep their HOT updates and pay nothing. A plain `CREATE INDEX` (as 0012, which says why); on a large
 * `game_sessions`, create it by hand with `CONCURRENTLY` before upgrading and this finds it.
 * It begins with 0012's `(merchant_id, player_id)`, so it serves the rounds of a player (reports, the back office's
 * look-up) as well, and 0012's index is dropped: one index less for every launch to write.
 */
export const m0023_recall_index = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE INDEX IF NOT EXISTS game_sessions_player_recent_idx
      ON game_sessions (merchant_id, player_id, mode, created_at DESC)`
  yield* sql`DROP INDEX IF EXISTS game_sessions_merchant_player_idx`
})
