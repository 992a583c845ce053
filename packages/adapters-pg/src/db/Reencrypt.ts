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
  /** Back-office users' TOTP secrets (migration 0016). */
  readonly totpSecrets: number
  /** The round-link keys kept in the database (migration 0017). */
  readonly roundLinkKeys: number
}

const batchSize = 200

const MerchantRow = Schema.Struct({ id: Schema.Int, private_key_enc: Schema.String, encryption_key_enc: Schema.String })
const KeyRow = Schema.Struct({ kid: Schema.String, private_key_enc: Schema.String })
const PreviousRow = Schema.Struct({
  id: Schema.Int,
  previous_encryption_key_enc: Schema.NullOr(Schema.String),
  previous_private_key_enc: Schema.NullOr(Schema.String)
})
const decodePrevious = Schema.decodeUnknownEffect(Schema.Array(PreviousRow))
const decodeMerchants = Schema.decodeUnknownEffect(Schema.Array(MerchantRow))
const decodeKeys = Schema.decodeUnknownEffect(Schema.Array(KeyRow))
const TotpRow = Schema.Struct({ id: Schema.Int, totp_secret_enc: Schema.String })
const decodeTotps = Schema.decodeUnknownEffect(Schema.Array(TotpRow))
const decodeLinkKeys = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.Int, key_enc: Schema.String })))

const unreadable = (what: string) => (_: DecryptionFailed) =>
  new ReencryptFailed({ message: `cannot open ${what} with any key of DATA_ENCRYPTION_KEY: list the key it was written with` })

/**
 * Rewrites every secret stored at rest (merchants' private and encryption
 * keys, the previous ones of a rotation still in its overlap, launch signing keys, back-office TOTP secrets, round-link keys) under the {@link DataCipher}'s current key, so
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

  // A rotation's previous secrets: dropped once their overlap is over (nothing signs with them), else moved too.
  yield* sql`UPDATE merchants SET previous_encryption_key_enc = NULL
    WHERE previous_encryption_key_enc IS NOT NULL AND NOT previous_encryption_key_until > now()`
  yield* sql`UPDATE merchants SET previous_private_key_enc = NULL
    WHERE previous_private_key_enc IS NOT NULL AND NOT previous_signing_key_until > now()`
  const previous = yield* sql`
    SELECT id, previous_encryption_key_enc, previous_private_key_enc FROM merchants
    WHERE previous_encryption_key_enc IS NOT NULL OR previous_private_key_enc IS NOT NULL ORDER BY id`
    .pipe(Effect.flatMap(decodePrevious))
  for (const row of previous) {
    const move = (stored: string | null) =>
      stored === null
        ? Effect.succeed(null)
        : cipher.reencrypt(stored).pipe(Effect.mapError(unreadable(`merchant ${row.id}'s previous secrets`)))
    const [encryptionKey, privateKey] = yield* Effect.all([move(row.previous_encryption_key_enc), move(row.previous_private_key_enc)])
    yield* sql`
      UPDATE merchants SET previous_encryption_key_enc = ${encryptionKey}, previous_private_key_enc = ${privateKey}
      WHERE id = ${row.id} AND previous_encryption_key_enc IS NOT DISTINCT FROM ${row.previous_encryption_key_enc}
        AND previous_private_key_enc IS NOT DISTINCT FROM ${row.previous_private_key_enc}`
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
  let totpSecrets = 0
  const totps = yield* sql`SELECT id, totp_secret_enc FROM backoffice_users WHERE totp_secret_enc IS NOT NULL ORDER BY id`.pipe(
    Effect.flatMap(decodeTotps)
  )
  for (const user of totps) {
    const secret = yield* cipher.reencrypt(user.totp_secret_enc).pipe(
      Effect.mapError(unreadable(`back-office user ${user.id}'s TOTP secret`))
    )
    const updated = yield* sql`
      UPDATE backoffice_users SET totp_secret_enc = ${secret}
      WHERE id = ${user.id} AND totp_secret_enc = ${user.totp_secret_enc} RETURNING id`
    totpSecrets += updated.length
  }

  let roundLinkKeys = 0
  const linkKeys = yield* sql`SELECT id, key_enc FROM round_link_keys ORDER BY id`.pipe(Effect.flatMap(decodeLinkKeys))
  for (const key of linkKeys) {
    const reencrypted = yield* cipher.reencrypt(key.key_enc).pipe(Effect.mapError(unreadable(`round-link key ${key.id}`)))
    const updated = yield* sql`
      UPDATE round_link_keys SET key_enc = ${reencrypted} WHERE id = ${key.id} AND key_enc = ${key.key_enc} RETURNING id`
    roundLinkKeys += updated.length
  }
  return { merchants, launchKeys, totpSecrets, roundLinkKeys }
}).pipe(
  Effect.catchTags({
    SqlError: (error) => Effect.fail(new ReencryptFailed({ message: `the database refused: ${error.message}` })),
    SchemaError: Effect.die
  }),
  Effect.withSpan("Reencrypt.reencryptAll")
)
