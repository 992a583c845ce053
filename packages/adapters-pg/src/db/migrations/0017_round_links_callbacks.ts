import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Round links and operator callbacks (CONTRACT §10). `round_link_keys`: the
 * keys that sign round links when `ROUND_LINK_KEY` is not set, encrypted
 * with DATA_ENCRYPTION_KEY, shared by every instance (the newest signs).
 * `session_end_sweep`: one row, how far the sweep of ended sessions has got
 * in the order of their expiry (`expires_at`, `id`): a session whose expiry
 * has passed never lives again, so each is reported once, in order, without
 * a column on `game_sessions` (written by every round). Sessions that ended
 * before this migration are not reported.
 */
export const m0017_round_links_callbacks = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE round_link_keys (
      id serial PRIMARY KEY,
      key_enc text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE session_end_sweep (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      swept_to timestamptz NOT NULL,
      swept_id uuid NOT NULL
    )`
  yield* sql`INSERT INTO session_end_sweep (swept_to, swept_id) VALUES (now(), '00000000-0000-0000-0000-000000000000')`
})
