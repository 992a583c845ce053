import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The launch-token signing keys shared by every server instance. The private
 * key is PKCS#8 PEM encrypted with DATA_ENCRYPTION_KEY; `kid` is the JWK
 * thumbprint of the public key. The current key is the newest one with no
 * `retired_at`; retired keys stay published while tokens they signed can
 * still be alive.
 */
export const m0003_signing_keys = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE launch_signing_keys (
      kid text COLLATE "C" PRIMARY KEY,
      private_key_enc text NOT NULL,
      public_jwk jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      retired_at timestamptz NULL
    )`
  yield* sql`CREATE INDEX launch_signing_keys_live_idx ON launch_signing_keys (created_at DESC) WHERE retired_at IS NULL`
})
