import { assert, describe, layer } from "@effect/vitest"
import { ApiKeyFromString, formatApiKey } from "@gateway/domain/ApiKey"
import { ApiKeyRepo } from "@gateway/domain/ports/ApiKeyRepo"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { Effect, Exit, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { TestClock } from "effect/testing"
import * as CachedApiKeyRepo from "../../src/cache/CachedApiKeyRepo.ts"
import { newMerchant, reposLayer } from "../fixtures.ts"

const parse = Schema.decodeUnknownSync(ApiKeyFromString)

/** This instance's keys, cached for 5 s, beside the uncached repository of "another instance" on the same database. */
const cached = Effect.provide(Effect.service(ApiKeyRepo), CachedApiKeyRepo.layer(5000))

const accepts = (repo: ApiKeyRepo["Service"], key: string) => Effect.map(Effect.exit(repo.authenticate(parse(key))), Exit.isSuccess)

describe("CachedApiKeyRepo", () => {
  layer(reposLayer)((it) => {
    it.effect("keeps a verified key for the TTL: a revocation through another instance takes effect when it passes", () =>
      Effect.gen(function*() {
        const here = yield* cached
        const there = yield* ApiKeyRepo
        const merchant = yield* (yield* MerchantRepo).create(newMerchant("cache@one.example"))
        const issued = yield* there.issue(merchant.id, "sv_live")
        const key = formatApiKey(issued.apiKey)
        assert.isTrue(yield* accepts(here, key))
        assert.isTrue(yield* there.revoke(merchant.id, issued.apiKey.slug))
        yield* TestClock.adjust(4999)
        assert.isTrue(yield* accepts(here, key))
        yield* TestClock.adjust(1)
        assert.isFalse(yield* accepts(here, key))
      }))

    it.effect("still checks the secret of a kept slug, and never keeps an unknown slug", () =>
      Effect.gen(function*() {
        const here = yield* cached
        const sql = yield* SqlClient
        const merchant = yield* (yield* MerchantRepo).create(newMerchant("cache@two.example"))
        const issued = yield* here.issue(merchant.id, "sv_live")
        const secret = Redacted.value(issued.apiKey.secret)
        assert.isTrue(yield* accepts(here, formatApiKey(issued.apiKey)))
        const wrong = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`
        assert.isFalse(yield* accepts(here, `sv_live.${wrong}.${issued.apiKey.slug}`))
        assert.isFalse(yield* accepts(here, `sv_test.${secret}.${issued.apiKey.slug}`))

        const late = `sv_live.${"L".repeat(43)}.lateslug0001`
        assert.isFalse(yield* accepts(here, late))
        const other = yield* ApiKeyRepo
        const again = yield* other.issue(merchant.id, "sv_live")
        yield* sql`UPDATE api_keys SET slug = 'lateslug0001' WHERE slug = ${again.apiKey.slug}`
        assert.isTrue(yield* accepts(here, `sv_live.${Redacted.value(again.apiKey.secret)}.lateslug0001`))
      }))

    it.effect("forgets a key revoked through it at once", () =>
      Effect.gen(function*() {
        const here = yield* cached
        const merchant = yield* (yield* MerchantRepo).create(newMerchant("cache@three.example"))
        const issued = yield* here.issue(merchant.id, "sv_live")
        const key = formatApiKey(issued.apiKey)
        assert.isTrue(yield* accepts(here, key))
        assert.isTrue(yield* here.revoke(merchant.id, issued.apiKey.slug))
        assert.isFalse(yield* accepts(here, key))
      }))
  })
})
