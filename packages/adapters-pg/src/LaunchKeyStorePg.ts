import * as KeyStore from "@gateway/adapters-operator/LaunchKeyStore"
import { LaunchKeyStore, PublicJwk, type SigningKey } from "@gateway/adapters-operator/LaunchKeyStore"
import { keyCacheTtl } from "@gateway/adapters-operator/LaunchSigner"
import { LaunchPolicy } from "@gateway/domain/LaunchPolicy"
import { Array as Arr, Config, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DataCipher } from "./DataCipher.ts"

/** The advisory lock key that serialises key creation and rotation across instances. */
export const signingKeyLockKey = 7_246_031_003

/** How long a retired key stays published: at least the longest lifetime of a token it signed. */
export interface LaunchKeyStorePgOptions {
  readonly retention: Duration.Input
}

const KeyRow = Schema.Struct({ kid: Schema.String, private_key_enc: Schema.String })
const decodeKeyRows = Schema.decodeUnknownEffect(Schema.Array(KeyRow))
const decodeJwkRows = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ public_jwk: PublicJwk })))

/**
 * {@link LaunchKeyStore} on PostgreSQL (`launch_signing_keys`): every instance
 * on the database signs with the same key. The first `current` creates it
 * under an advisory lock, so instances that start together agree. Private
 * keys are stored encrypted with {@link DataCipher}.
 */
export const make = Effect.fnUntraced(function*(options: LaunchKeyStorePgOptions) {
  const sql = yield* SqlClient
  const cipher = yield* DataCipher
  const retentionSeconds = Duration.toMillis(options.retention) / 1000

  const newest = sql`
    SELECT kid, private_key_enc FROM launch_signing_keys
    WHERE retired_at IS NULL ORDER BY created_at DESC, kid DESC LIMIT 1`.pipe(
    Effect.flatMap(decodeKeyRows),
    Effect.map(Arr.head)
  )

  const open = (row: typeof KeyRow.Type) =>
    cipher.decrypt(row.private_key_enc).pipe(
      Effect.flatMap(KeyStore.fromPem),
      Effect.flatMap((key) =>
        key.kid === row.kid ? Effect.succeed(key) : Effect.die(new Error(`launch signing key ${row.kid} does not match its kid`))
      )
    )

  const insert = (key: SigningKey) =>
    cipher.encrypt(KeyStore.toPem(key)).pipe(Effect.flatMap((encrypted) =>
      sql`INSERT INTO launch_signing_keys (kid, private_key_enc, public_jwk)
        VALUES (${key.kid}, ${encrypted}, ${JSON.stringify(key.publicJwk)}::jsonb)`
    ))

  const locked = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    sql.withTransaction(
      sql`SELECT pg_advisory_xact_lock(${sql.literal(String(signingKeyLockKey))})`.pipe(Effect.andThen(effect))
    )

  const created = Effect.gen(function*() {
    const key = yield* KeyStore.generate
    yield* insert(key)
    return key
  })

  const openOr = <E>(onNone: Effect.Effect<SigningKey, E>) =>
    Effect.gen(function*() {
      const row = yield* newest
      return Option.isSome(row) ? yield* open(row.value) : yield* onNone
    })

  const current = openOr(locked(openOr(created))).pipe(
    Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die, DecryptionFailed: Effect.die, InvalidSigningKey: Effect.die }),
    Effect.withSpan("LaunchKeyStore.current")
  )

  const rotate = locked(Effect.gen(function*() {
    yield* sql`UPDATE launch_signing_keys SET retired_at = now() WHERE retired_at IS NULL`
    return yield* created
  })).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("LaunchKeyStore.rotate"))

  const publicKeys = sql`
    SELECT public_jwk FROM launch_signing_keys
    WHERE retired_at IS NULL OR retired_at > now() - make_interval(secs => ${retentionSeconds}::float8)
    ORDER BY created_at DESC, kid`.pipe(
    Effect.flatMap(decodeJwkRows),
    Effect.map(Arr.map((row) => row.public_jwk)),
    Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }),
    Effect.withSpan("LaunchKeyStore.publicKeys")
  )

  return LaunchKeyStore.of({ current, publicKeys, rotate })
})

/** The store on PostgreSQL with explicit options (tests, or apps that read their own config). */
export const layer = (options: LaunchKeyStorePgOptions): Layer.Layer<LaunchKeyStore, never, SqlClient | DataCipher> =>
  Layer.effect(LaunchKeyStore, make(options))

/**
 * The launch keys from the environment. With `LAUNCH_SIGNING_KEY` (a PKCS#8
 * PEM Ed25519 private key) that key alone signs and is published, and the
 * database holds none. Otherwise the keys live in the database; a retired
 * key stays published for the launch token lifetime (`LaunchPolicy`) plus
 * the signers' key cache time. The current key is created at start-up.
 */
export const layerConfig: Layer.Layer<
  LaunchKeyStore,
  Config.ConfigError | KeyStore.InvalidSigningKey,
  SqlClient | DataCipher
> = Layer.effect(
  LaunchKeyStore,
  Effect.gen(function*() {
    const pem = yield* Config.option(Config.Redacted("LAUNCH_SIGNING_KEY"))
    if (Option.isSome(pem)) {
      const key = yield* KeyStore.fromPem(pem.value).pipe(
        Effect.mapError((error) => new KeyStore.InvalidSigningKey({ message: `LAUNCH_SIGNING_KEY: ${error.message}` }))
      )
      return KeyStore.fixed(key)
    }
    const policy = yield* LaunchPolicy
    const store = yield* make({ retention: Duration.sum(Duration.seconds(policy.ttlSeconds), keyCacheTtl) })
    yield* store.current
    return store
  })
)
