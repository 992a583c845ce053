import { assert, describe, layer } from "@effect/vitest"
import { ApiKeyFromString, formatApiKey } from "@gateway/domain/ApiKey"
import { Unauthorized } from "@gateway/domain/Auth"
import { ApiKeyRepo } from "@gateway/domain/ports/ApiKeyRepo"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { Effect, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { newMerchant, reposLayer } from "./fixtures.ts"

const parse = Schema.decodeUnknownSync(ApiKeyFromString)

describe("ApiKeyRepoPg", () => {
  layer(reposLayer)((it) => {
    it.effect("issues a key that authenticates, stores only its hash, and refuses wrong or revoked keys", () =>
      Effect.gen(function*() {
        const merchants = yield* MerchantRepo
        const keys = yield* ApiKeyRepo
        const merchant = yield* merchants.create(newMerchant("keys@one.example"))
        const issued = yield* keys.issue(merchant.id, "sv_live")
        const wire = formatApiKey(issued.apiKey)
        assert.match(issued.apiKey.slug, /^[a-z0-9]{12}$/)
        assert.match(Redacted.value(issued.apiKey.secret), /^[A-Za-z0-9_-]{43}$/)
        assert.strictEqual(yield* keys.authenticate(parse(wire)), merchant.id)

        const sql = yield* SqlClient
        const [stored] = yield* sql<{ readonly row: string }>`SELECT k::text AS row FROM api_keys k`
        assert.notInclude(stored?.row ?? "", Redacted.value(issued.apiKey.secret))

        const secret = Redacted.value(issued.apiKey.secret)
        const wrongSecret = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`
        for (const bad of [
          `sv_live.${wrongSecret}.${issued.apiKey.slug}`,
          `sv_test.${secret}.${issued.apiKey.slug}`,
          `sv_live.${secret}.unknownslug1`
        ]) {
          const error = yield* Effect.flip(keys.authenticate(parse(bad)))
          assert.instanceOf(error, Unauthorized)
          assert.notInclude(error.detail, secret)
          assert.notInclude(error.detail, wrongSecret)
        }

        assert.isFalse(yield* keys.revoke(merchant.id, "unknownslug1"))
        const other = yield* merchants.create(newMerchant("keys@other.example"))
        assert.isFalse(yield* keys.revoke(other.id, issued.apiKey.slug))
        assert.isTrue(yield* keys.revoke(merchant.id, issued.apiKey.slug))
        assert.instanceOf(yield* Effect.flip(keys.authenticate(parse(wire))), Unauthorized)
        assert.isFalse(yield* keys.revoke(merchant.id, issued.apiKey.slug))
      }))

    it.effect("lists keys issued within one millisecond newest first too (by the microsecond, not the listed text)", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const merchant = yield* (yield* MerchantRepo).create(newMerchant("keys@same-ms.example"))
        const keys = yield* ApiKeyRepo
        const slugs = [(yield* keys.issue(merchant.id, "sv_live")).apiKey.slug, (yield* keys.issue(merchant.id, "sv_live")).apiKey.slug]
        const [low = "", high = ""] = slugs.toSorted()
        // The later key has the larger slug: by slug, the order would be the other way round
        yield* sql`UPDATE api_keys SET created_at = '2026-11-29T07:00:00.123100Z' WHERE slug = ${low}`
        yield* sql`UPDATE api_keys SET created_at = '2026-11-29T07:00:00.123900Z' WHERE slug = ${high}`
        assert.deepStrictEqual((yield* keys.list(merchant.id, 10)).map((k) => k.slug), [high, low])
      }))

    it.effect("lists a merchant's keys newest first, revoked ones with when, never another merchant's or a secret", () =>
      Effect.gen(function*() {
        const merchants = yield* MerchantRepo
        const keys = yield* ApiKeyRepo
        const merchant = yield* merchants.create(newMerchant("keys@list.example"))
        const other = yield* merchants.create(newMerchant("keys@list-other.example"))
        const first = yield* keys.issue(merchant.id, "sv_live")
        const second = yield* keys.issue(merchant.id, "sv_test")
        yield* keys.issue(other.id, "sv_live")
        assert.isTrue(yield* keys.revoke(merchant.id, first.apiKey.slug))
        const listed = yield* keys.list(merchant.id, 10)
        assert.deepStrictEqual(listed.map((k) => [k.slug, k.prefix, k.revokedAt !== undefined]), [
          [second.apiKey.slug, "sv_test", false],
          [first.apiKey.slug, "sv_live", true]
        ])
        assert.notInclude(JSON.stringify(listed), Redacted.value(first.apiKey.secret))
        assert.deepStrictEqual((yield* keys.list(merchant.id, 1)).map((k) => k.slug), [second.apiKey.slug])
      }))

    it.effect("issues distinct keys", () =>
      Effect.gen(function*() {
        const merchants = yield* MerchantRepo
        const keys = yield* ApiKeyRepo
        const merchant = yield* merchants.create(newMerchant("keys@two.example"))
        const issued = yield* Effect.all(Array.from({ length: 20 }, () => keys.issue(merchant.id, "sv_test")))
        assert.strictEqual(new Set(issued.map((k) => k.apiKey.slug)).size, 20)
        for (const key of issued) assert.strictEqual(yield* keys.authenticate(key.apiKey), merchant.id)
      }))
  })
})
