import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { type ApiKey, ApiKeySlug } from "../../domain/src/ApiKey.ts"
import { Unauthorized } from "../../domain/src/Auth.ts"
import { MerchantId } from "../../domain/src/Merchant.ts"
import { ApiKeyRepo } from "../../domain/src/ports/ApiKeyRepo.ts"
import { epoch } from "../../domain/test/doubles.ts"
import * as ApiKeyCache from "../src/ApiKeyCache.ts"

const keyOf = (secret: string, slug: string): ApiKey => ({
  prefix: "sv_live",
  secret: Redacted.make(secret),
  slug: ApiKeySlug.make(slug)
})
const wire = (key: ApiKey) => `${key.prefix}.${Redacted.value(key.secret)}.${key.slug}`

/** One store of keys (the database), counting lookups. */
const store = () => {
  const live = new Map<string, MerchantId>()
  const lookups = { value: 0 }
  const repo = ApiKeyRepo.of({
    authenticate: (key) =>
      Effect.suspend(() => {
        lookups.value++
        const owner = live.get(wire(key))
        return owner === undefined ? Effect.fail(new Unauthorized({ detail: "unknown sv-api-key" })) : Effect.succeed(owner)
      }),
    issue: (merchantId, prefix) =>
      Effect.sync(() => {
        const apiKey = { ...keyOf("n".repeat(43), "issued01"), prefix }
        live.set(wire(apiKey), merchantId)
        return { apiKey, createdAt: epoch }
      }),
    revoke: (_merchantId, slug) =>
      Effect.sync(() => [...live.keys()].filter((k) => k.endsWith(`.${slug}`)).map((k) => live.delete(k)).length > 0)
  })
  return { live, lookups, repo }
}

const cached = (inner: ApiKeyRepo["Service"], ttlMs = 5000, maxEntries?: number) =>
  Effect.clockWith((clock) => Effect.succeed(ApiKeyCache.make(inner, { ttlMs, maxEntries }, clock)))

const succeeds = (repo: ApiKeyRepo["Service"], key: ApiKey) => Effect.map(Effect.exit(repo.authenticate(key)), Exit.isSuccess)

const known = keyOf("A".repeat(43), "activekey1")

describe("ApiKeyCache", () => {
  it.effect("answers a repeated key from memory within the TTL, then asks again", () =>
    Effect.gen(function*() {
      const db = store()
      db.live.set(wire(known), MerchantId.make(7))
      const repo = yield* cached(db.repo)
      assert.strictEqual(yield* repo.authenticate(known), 7)
      assert.strictEqual(yield* repo.authenticate(known), 7)
      assert.strictEqual(db.lookups.value, 1)
      yield* TestClock.adjust(5000)
      assert.strictEqual(yield* repo.authenticate(known), 7)
      assert.strictEqual(db.lookups.value, 2)
    }))

  it.effect("never caches a refusal, nor a wrong secret for a known slug", () =>
    Effect.gen(function*() {
      const db = store()
      db.live.set(wire(known), MerchantId.make(7))
      const repo = yield* cached(db.repo)
      const fresh = keyOf("n".repeat(43), "issued01")
      assert.isFalse(yield* succeeds(repo, fresh))
      yield* repo.issue(MerchantId.make(7), "sv_live")
      assert.isTrue(yield* succeeds(repo, fresh))
      assert.isTrue(yield* succeeds(repo, known))
      assert.isFalse(yield* succeeds(repo, keyOf("Z".repeat(43), "activekey1")))
    }))

  it.effect("forgets a key revoked through it at once; another instance within the TTL", () =>
    Effect.gen(function*() {
      const db = store()
      db.live.set(wire(known), MerchantId.make(7))
      const here = yield* cached(db.repo)
      const there = yield* cached(db.repo)
      assert.isTrue(yield* succeeds(here, known))
      assert.isTrue(yield* succeeds(there, known))
      assert.isTrue(yield* here.revoke(MerchantId.make(7), "activekey1"))
      assert.isFalse(yield* succeeds(here, known))
      assert.isTrue(yield* succeeds(there, known))
      yield* TestClock.adjust(4999)
      assert.isTrue(yield* succeeds(there, known))
      yield* TestClock.adjust(1)
      assert.isFalse(yield* succeeds(there, known))
    }))

  it.effect("does not remember a verification that raced with a revocation", () =>
    Effect.gen(function*() {
      const db = store()
      db.live.set(wire(known), MerchantId.make(7))
      let repo: ApiKeyRepo["Service"] | undefined
      const racing = ApiKeyRepo.of({
        ...db.repo,
        authenticate: (key) =>
          db.repo.authenticate(key).pipe(Effect.tap(() => repo === undefined ? Effect.void : repo.revoke(MerchantId.make(7), key.slug)))
      })
      repo = yield* cached(racing)
      assert.isTrue(yield* succeeds(repo, known))
      assert.isFalse(yield* succeeds(repo, known))
    }))

  it.effect("keeps at most maxEntries keys, and none with ttl 0", () =>
    Effect.gen(function*() {
      const db = store()
      const keys = ["a", "b", "c"].map((c) => keyOf(c.repeat(43), `slug${c}aaaa`))
      for (const key of keys) db.live.set(wire(key), MerchantId.make(7))
      const small = yield* cached(db.repo, 5000, 2)
      for (const key of keys) yield* small.authenticate(key)
      db.lookups.value = 0
      yield* small.authenticate(keys[2] ?? known)
      yield* small.authenticate(keys[1] ?? known)
      assert.strictEqual(db.lookups.value, 0)
      yield* small.authenticate(keys[0] ?? known)
      assert.strictEqual(db.lookups.value, 1)
      const off = yield* cached(db.repo, 0)
      assert.strictEqual(off, db.repo)
    }))
})

describe("ApiKeyCache config", () => {
  const read = (env: Record<string, string>) =>
    ApiKeyCache.config.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })), Effect.exit)

  it.effect("reads API_KEY_CACHE_TTL_MS (default 5000, 0 allowed) and refuses more than a minute", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* read({}), Exit.succeed(5000))
      assert.deepStrictEqual(yield* read({ API_KEY_CACHE_TTL_MS: "0" }), Exit.succeed(0))
      assert.isTrue(Exit.isFailure(yield* read({ API_KEY_CACHE_TTL_MS: "600000" })))
      assert.isTrue(Exit.isFailure(yield* read({ API_KEY_CACHE_TTL_MS: "soon" })))
    }))
})
