import { LaunchJwk } from "@gateway/domain/LaunchToken"
import { LaunchKeyGenerator, LaunchKeyStore, type LaunchSigningKey } from "@gateway/domain/ports/LaunchKeyStore"
import { Array as Arr, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DataCipher } from "./db/DataCipher.ts"

/** The advisory lock key that serialises key creation and rotation across instances. */
export const signingKeyLockKey = 7_246_031_003

export interface LaunchKeyStorePgOptions {
  /** How long a retired key stays published: at least the longest lifetime of a token it signed. */
  readonly retention: Duration.Input
  /**
   * How long a retired key still verifies, unpublished, the links a page may resume (LaunchPolicy's
   * `resumableKeyRetentionSeconds`); `retention` when shorter or not given.
   */
  readonly resumableRetention?: Duration.Input | undefined
}

const KeyRow = Schema.Struct({ kid: Schema.String, private_key_enc: Schema.String, public_jwk: LaunchJwk })
const decodeKeyRows = Schema.decodeUnknownEffect(Schema.Array(KeyRow))
const decodeJwkRows = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ public_jwk: LaunchJwk })))

/**
 * {@link LaunchKeyStore} on PostgreSQL (`launch_signing_keys`): every instance
 * on the database signs with the same key. The first `current` creates it
 * (with the {@link LaunchKeyGenerator}) under an advisory lock, so instances
 * that start together agree. Private keys are stored encrypted with
 * {@link DataCipher}.
 */
export const make = Effect.fnUntraced(function*(options: LaunchKeyStorePgOptions) {
  const sql = yield* SqlClient
  const cipher = yield* DataCipher
  const generator = yield* LaunchKeyGenerator
  const retentionSeconds = Duration.toMillis(Duration.fromInputUnsafe(options.retention)) / 1000
  const resumableSeconds = Math.max(
    retentionSeconds,
    Duration.toMillis(Duration.fromInputUnsafe(options.resumableRetention ?? options.retention)) / 1000
  )

  const newest = sql`
    SELECT kid, private_key_enc, public_jwk FROM launch_signing_keys
    WHERE retired_at IS NULL ORDER BY created_at DESC, kid DESC LIMIT 1`.pipe(
    Effect.flatMap(decodeKeyRows),
    Effect.map(Arr.head)
  )

  const open = (row: typeof KeyRow.Type) =>
    Effect.map(cipher.decrypt(row.private_key_enc), (privateKey): LaunchSigningKey => ({
      kid: row.kid,
      privateKey,
      publicJwk: row.public_jwk
    }))

  const insert = (key: LaunchSigningKey) =>
    cipher.encrypt(key.privateKey).pipe(Effect.flatMap((encrypted) =>
      sql`INSERT INTO launch_signing_keys (kid, private_key_enc, public_jwk)
        VALUES (${key.kid}, ${encrypted}, ${JSON.stringify(key.publicJwk)}::jsonb)`
    ))

  const locked = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    sql.withTransaction(
      sql`SELECT pg_advisory_xact_lock(${sql.literal(String(signingKeyLockKey))})`.pipe(Effect.andThen(effect))
    )

  const created = Effect.gen(function*() {
    const key = yield* generator.generate
    yield* insert(key)
    return key
  })

  const openOr = <E>(onNone: Effect.Effect<LaunchSigningKey, E>) =>
    Effect.gen(function*() {
      const row = yield* newest
      return Option.isSome(row) ? yield* open(row.value) : yield* onNone
    })

  const current = openOr(locked(openOr(created))).pipe(
    Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die, DecryptionFailed: Effect.die }),
    Effect.withSpan("LaunchKeyStore.current")
  )

  const rotate = locked(Effect.gen(function*() {
    yield* sql`UPDATE launch_signing_keys SET retired_at = now() WHERE retired_at IS NULL`
    return yield* created
  })).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("LaunchKeyStore.rotate"))

  /** The live keys and those retired less than `seconds` ago, newest first. */
  const keysRetiredWithin = (seconds: number, span: string) =>
    sql`
      SELECT public_jwk FROM launch_signing_keys
      WHERE retired_at IS NULL OR retired_at > now() - make_interval(secs => ${seconds}::float8)
      ORDER BY created_at DESC, kid`.pipe(
      Effect.flatMap(decodeJwkRows),
      Effect.map(Arr.map((row) => row.public_jwk)),
      Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }),
      Effect.withSpan(span)
    )

  return LaunchKeyStore.of({
    current,
    publicKeys: keysRetiredWithin(retentionSeconds, "LaunchKeyStore.publicKeys"),
    resumableKeys: keysRetiredWithin(resumableSeconds, "LaunchKeyStore.resumableKeys"),
    rotate
  })
})

/** The store on PostgreSQL; its current key exists once the layer is built. */
export const layer = (
  options: LaunchKeyStorePgOptions
): Layer.Layer<LaunchKeyStore, never, SqlClient | DataCipher | LaunchKeyGenerator> =>
  Layer.effect(
    LaunchKeyStore,
    Effect.tap(make(options), (store) => store.current)
  )
