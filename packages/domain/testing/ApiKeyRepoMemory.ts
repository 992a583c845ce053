import { Effect, Layer, Redacted } from "effect"
import { type ApiKey, type ApiKeyPrefix, ApiKeySlug, formatApiKey } from "../src/ApiKey.ts"
import { Unauthorized } from "../src/Auth.ts"
import { MerchantId } from "../src/Merchant.ts"
import { ApiKeyRepo } from "../src/ports/ApiKeyRepo.ts"
import { epoch } from "./Fixtures.ts"

/** API keys in memory, by their full text; `lookups` counts calls of `authenticate`. */
export interface MemoryApiKeys {
  readonly service: ApiKeyRepo["Service"]
  readonly lookups: () => number
}

/**
 * The ApiKeyRepo port in memory, from `[fullKey, merchantId]` pairs: issue
 * and revoke work; unknown and revoked keys fail like the real one. A revoked
 * key is forgotten: `list` shows the live ones (created at the epoch).
 */
export const makeApiKeyRepo = (initial: Iterable<readonly [string, number]> = []): MemoryApiKeys => {
  const keys = new Map(initial)
  let lookups = 0
  let issued = 0
  const service = ApiKeyRepo.of({
    authenticate: (key: ApiKey) =>
      Effect.suspend(() => {
        lookups++
        const owner = keys.get(formatApiKey(key))
        return owner === undefined
          ? Effect.fail(new Unauthorized({ detail: "unknown sv-api-key" }))
          : Effect.succeed(MerchantId.make(owner))
      }),
    issue: (merchantId, prefix) =>
      Effect.sync(() => {
        issued++
        const slug = ApiKeySlug.make(`issued${String(issued).padStart(4, "0")}`)
        const secret = `${"k".repeat(42)}${issued}`
        keys.set(`${prefix}.${secret}.${slug}`, merchantId)
        return { apiKey: { prefix, secret: Redacted.make(secret), slug }, createdAt: epoch }
      }),
    revoke: (merchantId, slug) =>
      Effect.sync(() => {
        const found = [...keys].find(([key, owner]) => owner === merchantId && key.endsWith(`.${slug}`))
        if (found !== undefined) keys.delete(found[0])
        return found !== undefined
      }),
    list: (merchantId, limit) =>
      Effect.sync(() =>
        [...keys].filter(([, owner]) => owner === merchantId).reverse().slice(0, limit).map(([key]) => {
          const parts = key.split(".")
          const prefix: ApiKeyPrefix = parts[0] === "sv_test" ? "sv_test" : "sv_live"
          return { slug: parts.at(-1) ?? "", prefix, createdAt: epoch, revokedAt: undefined }
        })
      )
  })
  return { service, lookups: () => lookups }
}

/** {@link makeApiKeyRepo} as a layer. */
export const apiKeyRepo = (initial: Iterable<readonly [string, number]> = []) =>
  Layer.sync(ApiKeyRepo, () => makeApiKeyRepo(initial).service)
