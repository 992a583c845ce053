import type { ApiKey } from "@gateway/domain/ApiKey"
import { ApiKeyPrefix, ApiKeySlug } from "@gateway/domain/ApiKey"
import { Unauthorized } from "@gateway/domain/Auth"
import { MerchantId } from "@gateway/domain/Merchant"
import { ApiKeyRepo } from "@gateway/domain/ports/ApiKeyRepo"
import { Effect, FiberSet, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { hash, randomBytes, randomInt, timingSafeEqual } from "node:crypto"

const KeyRow = Schema.Struct({
  merchant_id: MerchantId,
  prefix: Schema.String,
  secret_hash: Schema.Uint8Array,
  revoked: Schema.Boolean
})
const decodeKeyRows = Schema.decodeUnknownEffect(Schema.Array(KeyRow))
const SummaryRow = Schema.Struct({
  slug: Schema.String,
  prefix: ApiKeyPrefix,
  created_at: Schema.DateTimeUtcFromString,
  revoked_at: Schema.NullOr(Schema.DateTimeUtcFromString),
  last_used_at: Schema.NullOr(Schema.DateTimeUtcFromString)
})
const decodeSummaries = Schema.decodeUnknownEffect(Schema.Array(SummaryRow))
const decodeCreated = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ created_at: Schema.DateTimeUtcFromString })))

/** What is stored of a key: its owner, prefix, the hash of its secret and whether it was revoked. */
export type StoredKey = typeof KeyRow.Type

/** Reads the stored key of a slug; none when no key has it. */
export type FindStoredKey = (slug: string) => Effect.Effect<Option.Option<StoredKey>>

/** How often a key's `last_used_at` is written, at most: a key used on every request costs one write a minute. */
const lastUsedEveryMs = 60_000
/** Keys whose last write this instance remembers; past it, it forgets them all (one more write each, at worst). */
const maxTracked = 100_000

const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

/** A new slug: 12 characters of [a-z0-9] drawn with a cryptographic generator. */
export const makeSlug = (): string => Array.from({ length: 12 }, () => alphabet[randomInt(alphabet.length)]).join("")

/** SHA-256 of the secret part of a key; the key is 32 random bytes, so a fast hash suffices. */
export const hashSecret = (secret: Redacted.Redacted<string>): Buffer => hash("sha256", Redacted.value(secret), "buffer")

const rejected = new Unauthorized({ detail: "unknown or revoked sv-api-key" })

/** Compared with the given hash when no key is stored, so that an unknown slug takes as long as a wrong secret. */
const noHash = new Uint8Array(32)

/** The owner of `key` when it matches what is stored (secret compared in constant time), else undefined. */
const ownerOf = (stored: Option.Option<StoredKey>, key: ApiKey): MerchantId | undefined => {
  const given = hashSecret(key.secret)
  const row = Option.getOrUndefined(stored)
  const hash = row === undefined ? noHash : row.secret_hash
  const same = hash.length === given.length && timingSafeEqual(hash, given)
  return row === undefined || !same || row.revoked || row.prefix !== key.prefix ? undefined : row.merchant_id
}

/** The stored key of a slug, from `api_keys`. */
export const findStoredKey = (sql: SqlClient): FindStoredKey => (slug) =>
  sql`
    SELECT merchant_id, prefix, secret_hash, revoked_at IS NOT NULL AS revoked
    FROM api_keys WHERE slug = ${slug}`.pipe(
    Effect.flatMap(decodeKeyRows),
    Effect.map((rows) => Option.fromNullishOr(rows[0])),
    Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }),
    Effect.withSpan("ApiKeyRepo.findStoredKey")
  )

/**
 * {@link ApiKeyRepo} on PostgreSQL: only the hash of a key's secret is
 * stored; `find` reads what is stored of a slug (the table itself, or a
 * cache of it).
 */
export const make = Effect.fnUntraced(function*(find: FindStoredKey) {
  const sql = yield* SqlClient
  const writes = yield* FiberSet.make()
  /** When this instance last wrote each key's `last_used_at` (epoch ms): at most once a minute per key. */
  const lastWritten = new Map<string, number>()
  /** Whether a key's use is to be written now: at most once a minute per key (noted as written). */
  const due = (slug: string): boolean => {
    const now = Date.now()
    if (now - (lastWritten.get(slug) ?? 0) < lastUsedEveryMs) return false
    if (lastWritten.size >= maxTracked) lastWritten.clear()
    lastWritten.set(slug, now)
    return true
  }
  /** Records a key's use in the background: the request does not wait for it. */
  const touch = (slug: string) =>
    FiberSet.run(writes, sql`
      UPDATE api_keys SET last_used_at = now()
      WHERE slug = ${slug} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`.pipe(
      Effect.catchCause((cause) => Effect.logWarning("an API key's last use was not recorded", cause))
    ))

  const authenticate = (key: ApiKey) =>
    Effect.flatMap(find(key.slug), (stored) => {
      const owner = ownerOf(stored, key)
      if (owner === undefined) return Effect.fail(rejected)
      return due(key.slug) ? Effect.as(touch(key.slug), owner) : Effect.succeed(owner)
    })

  const issue = Effect.fn("ApiKeyRepo.issue")(function*(merchantId: MerchantId, prefix: ApiKeyPrefix) {
    const secret = Redacted.make(randomBytes(32).toString("base64url"), { label: "ApiKeySecret" })
    const slug = ApiKeySlug.make(makeSlug())
    const [row] = yield* sql`
      INSERT INTO api_keys (slug, merchant_id, prefix, secret_hash)
      VALUES (${slug}, ${merchantId}, ${prefix}, ${hashSecret(secret)})
      RETURNING to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`.pipe(
      Effect.flatMap(decodeCreated)
    )
    if (row === undefined) return yield* Effect.die("INSERT … RETURNING gave no row")
    return { apiKey: { prefix, secret, slug }, createdAt: row.created_at }
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const revoke = Effect.fn("ApiKeyRepo.revoke")(function*(merchantId: MerchantId, slug: string) {
    const rows = yield* sql`
      UPDATE api_keys SET revoked_at = now()
      WHERE slug = ${slug} AND merchant_id = ${merchantId} AND revoked_at IS NULL
      RETURNING slug`
    return rows.length > 0
  }, Effect.catchTag("SqlError", Effect.die))

  // Ordered by the column (microseconds), not the output's `created_at` (its text to the millisecond), which a
  // bare name in ORDER BY would mean: keys issued within one millisecond came out by slug.
  const list = Effect.fn("ApiKeyRepo.list")(function*(merchantId: MerchantId, limit: number) {
    const rows = yield* sql`
      SELECT slug, prefix,
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
        to_char(revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS revoked_at,
        to_char(last_used_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_used_at
      FROM api_keys WHERE merchant_id = ${merchantId}
      ORDER BY api_keys.created_at DESC, slug LIMIT ${limit}`.pipe(Effect.flatMap(decodeSummaries))
    return rows.map((row) => ({
      slug: row.slug,
      prefix: row.prefix,
      createdAt: row.created_at,
      revokedAt: row.revoked_at ?? undefined,
      lastUsedAt: row.last_used_at ?? undefined
    }))
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  return ApiKeyRepo.of({ authenticate, issue, revoke, list })
})

/** The repository reading `api_keys` on every authentication. */
export const layer: Layer.Layer<ApiKeyRepo, never, SqlClient> = Layer.effect(
  ApiKeyRepo,
  Effect.flatMap(SqlClient, (sql) => make(findStoredKey(sql)))
)
