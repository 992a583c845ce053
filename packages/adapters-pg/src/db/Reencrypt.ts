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
  readonly roundLinkKeys: number
}

const batchSize = 200

const MerchantRow = Schema.Struct({ id: Schema.Int, private_key_enc: Schema.String, encryption_key_enc: Schema.String })
const KeyRow = Schema.Struct({ kid: Schema.String, private_key_enc: Schema.String })
const decodeMerchants = Schema.decodeUnknownEffect(Schema.Array(MerchantRow))
const decodeKeys = Schema.decodeUnknownEffect(Schema.Array(KeyRow))
const decodeLinkKeys = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.Int, key_enc: Schema.String })))

const unreadable = (what: string) => (_: DecryptionFailed) =>
  new ReencryptFailed({ message: `cannot open ${what} with any key of DATA_ENCRYPTION_KEY: list the key it was written with` })

/**
 * Rewrites every secret stored at rest (merchants' private and encryption
 * keys, launch signing keys, round-link keys) under the {@link DataCipher}'s current key, so
 * that the previous keys of a rotation are no longer needed. Merchants go in
 * batches of 200 by id, one UPDATE a batch, each row updated only if it has
 * not changed since it was read; running it again is harmless. Instances
 * keep serving meanwhile: their cipher decrypts under the old and the new
 * keys alike.
 */
export const reencryptAll: Effect.Effect<Reencrypted, ReencryptFailed, SqlClient | DataCipher> = Effect.gen(function*() {
  const sql = yield* SqlClient
  const cipher = yield* DataCipher

  let merchants = 0
  for (let after = 0;;) {
    const rows = yield* sql`
      SELECT id, private_key_enc, encryption_key_enc FROM merchants WHERE id > ${after} ORDER BY id LIMIT ${batchSize}`
      .pipe(Effect.flatMap(decodeMerchants))
    if (rows.length === 0) break
    const moved = yield* Effect.forEach(rows, (row) => {
      const unreadableRow = unreadable(`merchant ${row.id}'s secrets`)
      return Effect.all([
        cipher.reencrypt(row.private_key_enc).pipe(Effect.mapError(unreadableRow)),
        cipher.reencrypt(row.encryption_key_enc).pipe(Effect.mapError(unreadableRow))
      ])
    })
    // One statement a batch: one round trip, and one change notification for the instances' caches.
    const updated = yield* sql`
      UPDATE merchants m SET private_key_enc = v.private_key_enc, encryption_key_enc = v.encryption_key_enc
      FROM unnest(
        ${rows.map((r) => r.id)}::integer[], ${rows.map((r) => r.private_key_enc)}::text[],
        ${rows.map((r) => r.encryption_key_enc)}::text[], ${moved.map(([privateKey]) => privateKey)}::text[],
        ${moved.map(([, encryptionKey]) => encryptionKey)}::text[]
      ) AS v (id, old_private_key_enc, old_encryption_key_enc, private_key_enc, encryption_key_enc)
      WHERE m.id = v.id AND m.private_key_enc = v.old_private_key_enc AND m.encryption_key_enc = v.old_encryption_key_enc
      RETURNING m.id`
    merchants += updated.length
    after = rows[rows.length - 1]?.id ?? after
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

  let roundLinkKeys = 0
  const linkKeys = yield* sql`SELECT id, key_enc FROM round_link_keys ORDER BY id`.pipe(Effect.flatMap(decodeLinkKeys))
  for (const key of linkKeys) {
    const reencrypted = yield* cipher.reencrypt(key.key_enc).pipe(Effect.mapError(unreadable(`round-link key ${key.id}`)))
    const updated = yield* sql`
      UPDATE round_link_keys SET key_enc = ${reencrypted} WHERE id = ${key.id} AND key_enc = ${key.key_enc} RETURNING id`
    roundLinkKeys += updated.length
  }
  return { merchants, launchKeys, roundLinkKeys }
}).pipe(
  Effect.catchTags({
    SqlError: (error) => Effect.fail(new ReencryptFailed({ message: `the database refused: ${error.message}` })),
    SchemaError: Effect.die
  }),
  Effect.withSpan("Reencrypt.reencryptAll")
)
