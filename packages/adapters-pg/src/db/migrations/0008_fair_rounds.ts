import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Provably fair rounds of every built-in game (CONTRACT §6).
 *
 * - Each game session holds its current server seed (secret until it is
 *   revealed), the seed's SHA-256 committed to the player, the player's
 *   client seed and the next nonce. A session opened before this migration
 *   gets them from PostgreSQL (also one opened by an older instance during a
 *   rolling deploy), and the committed hash is a generated column.
 * - `revealed_seeds` keeps every seed a rotation revealed, with the client
 *   seed it served and how many nonces it gave.
 * - `rounds` records the game played (a lobby session plays several), the
 *   seed hash, client seed and nonce of the round, and demo rounds too
 *   (`mode = 'demo'`, no debit). `selection` and `outcome` become JSON text:
 *   the old odd-even text `"odd"` becomes the JSON string `"odd"`, an old
 *   outcome `"17 odd"` becomes `{"summary": "17 odd"}`.
 * - The merchant setting `frameAncestors` (the game page's CSP
 *   `frame-ancestors`).
 */
export const m0008_fair_rounds = Effect.gen(function*() {
  const sql = yield* SqlClient
  // Sessions opened before (or by an older instance during a rolling deploy) get seeds from PostgreSQL's own
  // CSPRNG (gen_random_uuid: 122 random bits each); the committed hash is always computed from the seed.
  yield* sql`
    ALTER TABLE game_sessions
      ADD COLUMN server_seed text NOT NULL
        DEFAULT encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'),
      ADD COLUMN client_seed text NOT NULL DEFAULT left(md5(gen_random_uuid()::text), 16),
      ADD COLUMN nonce bigint NOT NULL DEFAULT 0 CHECK (nonce >= 0)`
  // A seed is 64 hex digits, so its text cast to bytea is exactly its UTF-8 bytes (no backslash escapes), and
  // the cast is immutable, as a generated column needs.
  yield* sql`ALTER TABLE game_sessions ADD CHECK (server_seed ~ '^[0-9a-f]{64}$')`
  yield* sql`
    ALTER TABLE game_sessions ADD COLUMN server_seed_hash text COLLATE "C" NOT NULL
      GENERATED ALWAYS AS (encode(sha256(server_seed::bytea), 'hex')) STORED`
  yield* sql`
    CREATE TABLE revealed_seeds (
      server_seed_hash text COLLATE "C" PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES game_sessions (id),
      server_seed text NOT NULL,
      client_seed text NOT NULL,
      nonces bigint NOT NULL CHECK (nonces >= 0),
      revealed_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX revealed_seeds_session_idx ON revealed_seeds (session_id)`
  yield* sql`
    ALTER TABLE rounds
      ADD COLUMN game_id text,
      ADD COLUMN mode text NOT NULL DEFAULT 'real' CHECK (mode IN ('real', 'demo')),
      ADD COLUMN server_seed_hash text COLLATE "C",
      ADD COLUMN client_seed text,
      ADD COLUMN nonce bigint,
      ALTER COLUMN debit_id DROP NOT NULL`
  yield* sql`
    UPDATE rounds r SET game_id = s.game_id,
      selection = to_json(r.selection)::text,
      outcome = CASE WHEN r.outcome IS NULL THEN NULL ELSE json_build_object('summary', r.outcome)::text END
    FROM game_sessions s WHERE s.id = r.session_id`
  yield* sql`
    ALTER TABLE rounds
      ALTER COLUMN game_id SET NOT NULL,
      ADD CHECK ((mode = 'real') = (debit_id IS NOT NULL)),
      ADD CHECK ((server_seed_hash IS NULL) = (nonce IS NULL) AND (server_seed_hash IS NULL) = (client_seed IS NULL))`
  yield* sql`DROP INDEX rounds_session_idx`
  yield* sql`CREATE INDEX rounds_session_idx ON rounds (session_id, created_at DESC)`
  yield* sql`ALTER TABLE merchant_settings ADD COLUMN frame_ancestors text`
})
