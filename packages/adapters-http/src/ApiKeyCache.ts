import { Clock, Config, Effect, Layer, Redacted, Schema } from "effect"
import { type ApiKey, ApiKeyRepo, type Merchant } from "@gateway/domain"
import { createHash } from "node:crypto"

/** How long a verified key is trusted without asking the repository again, and how many are kept. */
export interface ApiKeyCacheOptions {
  readonly ttlMs: number
  readonly maxEntries?: number | undefined
}

interface Entry {
  readonly merchantId: Merchant.MerchantId
  readonly slug: string
  readonly expiresAt: number
}

/** The map key of an API key: SHA-256 of the whole key, so no secret is kept in plain text. */
const digest = (key: ApiKey.ApiKey): string =>
  createHash("sha256").update(`${key.prefix}.`).update(Redacted.value(key.secret)).update(`.${key.slug}`).digest(
    "base64url"
  )

/**
 * `ApiKeyRepo` with successful verifications remembered for `ttlMs`
 * (failures never are, so a key works as soon as it is issued). `revoke`
 * through this instance forgets the key at once; a key revoked through
 * another instance keeps working here for at most `ttlMs`. `ttlMs` 0
 * returns `inner` unchanged.
 */
export const make = (
  inner: ApiKeyRepo["Service"],
  options: ApiKeyCacheOptions,
  clock: Clock.Clock
): ApiKeyRepo["Service"] => {
  const { ttlMs } = options
  if (ttlMs <= 0) return inner
  const maxEntries = options.maxEntries ?? 10_000
  const entries = new Map<string, Entry>()
  let revocations = 0
  const remember = (id: string, entry: Entry, at: number) => {
    for (const [oldest, e] of entries) {
      if (e.expiresAt > at && entries.size < maxEntries) break
      entries.delete(oldest)
    }
    entries.set(id, entry)
  }
  const forget = (slug: string) =>
    Effect.sync(() => {
      revocations++
      for (const [id, entry] of entries) if (entry.slug === slug) entries.delete(id)
    })
  return ApiKeyRepo.of({
    authenticate: (key) =>
      Effect.suspend(() => {
        const id = digest(key)
        const hit = entries.get(id)
        if (hit !== undefined) {
          if (hit.expiresAt > clock.currentTimeMillisUnsafe()) return Effect.succeed(hit.merchantId)
          entries.delete(id)
        }
        const seen = revocations
        return Effect.tap(inner.authenticate(key), (merchantId) =>
          Effect.sync(() => {
            if (seen !== revocations) return
            const at = clock.currentTimeMillisUnsafe()
            remember(id, { merchantId, slug: key.slug, expiresAt: at + ttlMs }, at)
          }))
      }),
    issue: inner.issue,
    revoke: (merchantId, slug) => forget(slug).pipe(Effect.andThen(inner.revoke(merchantId, slug)), Effect.ensuring(forget(slug)))
  })
}

/** Decorates the `ApiKeyRepo` below it with the cache. */
export const layer = (options: ApiKeyCacheOptions): Layer.Layer<ApiKeyRepo, never, ApiKeyRepo> =>
  Layer.effect(
    ApiKeyRepo,
    Effect.gen(function*() {
      return make(yield* ApiKeyRepo, options, yield* Clock.Clock)
    })
  )

/** `API_KEY_CACHE_TTL_MS`: milliseconds, 0 to 60 000, default 5000; 0 disables the cache. */
export const config = Config.schema(
  Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 60_000 })),
  "API_KEY_CACHE_TTL_MS"
).pipe(Config.withDefault(5000))

/** The cache configured from the environment, over the `ApiKeyRepo` below it. */
export const layerConfig: Layer.Layer<ApiKeyRepo, Config.ConfigError, ApiKeyRepo> = Layer.unwrap(
  Effect.map(config, (ttlMs) => layer({ ttlMs }))
)
