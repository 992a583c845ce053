import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DataCipher, type DecryptionFailed } from "./DataCipher.ts"

/** A stored secret that none of the keys opens: which row, never its value. */
export class ReencryptFailed extends Schema.TaggedError<ReencryptFailed>()("ReencryptFailed", {
  message: Schema.String
}) {}

/** How many rows were rewritten under the current key. */
export interface Reencrypted {
  readonly merchants: number
  readonly launchKeys: number
}

const batchSize = 200

const MerchantRow = Schema.Struct({ id: Schema.Int, private_key_enc: Schema.String, encryption_key_enc: Schema.String })
const KeyRow = Schema.Struct({ kid: Schema.String, private_key_enc: Schema.String })
const decodeMerchants = Schema.decodeUnknownEffect(Schema.Array(MerchantRow))
const decodeKeys = Schema.decodeUnknownEffect(Schema.Array(KeyRow))

const unreadable = (what: string) => (_: DecryptionFailed) =>
  new ReencryptFailed({ message: `cannot open ${what} with any key of DATA_ENCRYPTION_KEY: list the key it was written with` })

/**
 * Rewrites every secret stored at rest (merchants' private and encryption
 * keys, launch signing keys) under the {@link DataCipher}'s current key, so
 * that the previous keys of a rotation are no longer needed. Rows go in
 * batches of 200 by id, each row updated only if it has not changed since it
 * was read; running it again is harmless. Instances keep serving meanwhile:
 * their cipher decrypts under the old and the new keys alike.
 */
export const reencryptAll: Effect.Effect<Reencrypted, ReencryptFailed, SqlClient | DataCipher> = Effect.gen(function*() {
  const sql = yield* SqlClient
  const cipher = yield* DataCipher

  let merchants = 0
  for (let after = 0;;) {
    const rows = yield* sql`
      SELECT id, private_key_enc, encryption_key_enc FROM merchants WHERE id > ${after} ORDER BY id LIMIT ${batchSize}`
      .pipe(Effect.flatMap(decodeMerchants))
    for (const row of rows) {
      const what = `merchant ${row.id}'s secrets`
      const privateKey = yield* cipher.reencrypt(row.private_key_enc).pipe(Effect.mapError(unreadable(what)))
      const encryptionKey = yield* cipher.reencrypt(row.encryption_key_enc).pipe(Effect.mapError(unreadable(what)))
      const updated = yield* sql`
        UPDATE merchants SET private_key_enc = ${privateKey}, encryption_key_enc = ${encryptionKey}
        WHERE id = ${row.id} AND private_key_enc = ${row.private_key_enc} AND encryption_key_enc = ${row.encryption_key_enc}
        RETURNING id`
      merchants += updated.length
      after = row.id
    }
    if (rows.length < batchSize) break
  }

  let launchKeys = 0
  const keys = yield* sql`SELECT kid, private_key_enc FROM launch_signing_keys ORDER BY kid`.pipe(Effect.flatMap(decodeKeys))
  for (const key of keys) {
    const privateKey = yield* cipher.reencrypt(key.private_key_enc).pipe(
      Effect.mapError(unreadable(`launch signing key ${key.kid}`))
    )
    const updated = yield* sql`
      UPDATE launch_signing_keys SET private_key_enc = ${privateKey}
      WHERE kid = ${key.kid} AND private_key_enc = ${key.private_key_enc} RETURNING kid`
    launchKeys += updated.length
  }
  return { merchants, launchKeys }
}).pipe(
  Effect.catchTags({
    SqlError: (error) => Effect.fail(new ReencryptFailed({ message: `the database refused: ${error.message}` })),
    SchemaError: Effect.die
  }),
  Effect.withSpan("Reencrypt.reencryptAll")
)
