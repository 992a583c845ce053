import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Whether a real round was played by autoplay (CONTRACT §12). The round carries it from its beginning to its
 * settlement, so that the statements that begin and settle rounds (`db/RoundRows.ts`) take the session's
 * autoplay round and count the round's net loss themselves: an autoplay bet costs the two statements and two
 * commits of any bet instead of four (issue 22). A constant default: no table rewrite, existing rounds `false`.
 */
export const m0024_round_autoplay = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE rounds ADD COLUMN IF NOT EXISTS autoplay boolean NOT NULL DEFAULT false`
})
