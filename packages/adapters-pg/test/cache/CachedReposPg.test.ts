import { assert, describe, layer } from "@effect/vitest"
import { ApiKeyFromString, formatApiKey } from "@gateway/domain/ApiKey"
import { ApiKeyRepo } from "@gateway/domain/ports/ApiKeyRepo"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { Context, Effect, Exit, Layer, Redacted, Schedule, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as CachedApiKeyRepo from "../../src/cache/CachedApiKeyRepo.ts"
import * as CachedMerchantRepo from "../../src/cache/CachedMerchantRepo.ts"
import { newMerchant, reposLayer } from "../fixtures.ts"

const parse = Schema.decodeUnknownSync(ApiKeyFromString)

/** This instance's caches (a minute), beside the uncached repositories of "another instance" on the same database. */
const cached = Effect.map(
  Layer.build(Layer.merge(CachedApiKeyRepo.layer(60_000), CachedMerchantRepo.layer(60_000))),
  (context) => ({ keys: Context.get(context, ApiKeyRepo), merchants: Context.get(context, MerchantRepo) })
)

/** Polls `read` every 10 ms until `done` holds, for a second at most. */
const within1s = <A, E, R>(read: Effect.Effect<A, E, R>, done: (a: A) => boolean) =>
  read.pipe(Effect.repeat({ until: done, schedule: Schedule.spaced("10 millis"), times: 100 }))

const accepts = (repo: ApiKeyRepo["Service"], key: string) => Effect.map(Effect.exit(repo.authenticate(parse(key))), Exit.isSuccess)

describe("CachedApiKeyRepo", () => {
  layer(reposLayer, { excludeTestServices: true })((it) => {
    it.effect("a key revoked or a merchant suspended through another instance is refused here as soon as the change feed says so", () =>
      Effect.gen(function*() {
        const here = yield* cached
        const there = { keys: yield* ApiKeyRepo, merchants: yield* MerchantRepo }
        const merchant = yield* there.merchants.create(newMerchant("cache@one.example"))
        const issued = yield* there.keys.issue(merchant.id, "sv_live")
        const key = formatApiKey(issued.apiKey)
        assert.isTrue(yield* accepts(here.keys, key))
        assert.strictEqual((yield* here.merchants.findById(merchant.id)).accountStatus, "active")
        assert.isTrue(yield* there.keys.revoke(merchant.id, issued.apiKey.slug))
        yield* there.merchants.changeStatus(merchant.id, "suspended")
        assert.isFalse(yield* within1s(accepts(here.keys, key), (ok) => !ok))
        const status = yield* within1s(here.merchants.findById(merchant.id), (m) => m.accountStatus === "suspended")
        assert.strictEqual(status.accountStatus, "suspended")
      }).pipe(Effect.scoped))

    it.effect("still checks the secret of a kept slug, and never keeps an unknown slug", () =>
      Effect.gen(function*() {
        const here = (yield* cached).keys
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
      }).pipe(Effect.scoped))

    it.effect("forgets a key revoked through it at once", () =>
      Effect.gen(function*() {
        const here = (yield* cached).keys
        const merchant = yield* (yield* MerchantRepo).create(newMerchant("cache@three.example"))
        const issued = yield* here.issue(merchant.id, "sv_live")
        const key = formatApiKey(issued.apiKey)
        assert.isTrue(yield* accepts(here, key))
        assert.isTrue(yield* here.revoke(merchant.id, issued.apiKey.slug))
        assert.isFalse(yield* accepts(here, key))
      }).pipe(Effect.scoped))

    it.effect("forgets a key and a merchant changed through it in a transaction again once it commits, though read meanwhile", () =>
      Effect.gen(function*() {
        const here = yield* cached
        const sql = yield* SqlClient
        const merchant = yield* here.merchants.create(newMerchant("cache@four.example"))
        const issued = yield* here.keys.issue(merchant.id, "sv_live")
        const key = formatApiKey(issued.apiKey)
        assert.isTrue(yield* accepts(here.keys, key))
        /** Another request meanwhile, on a connection of its own: it reads the rows as committed before the change. */
        const elsewhere = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
          Effect.updateContext(effect, (context: Context.Context<R>) => Context.omit(sql.transactionService)(context) as Context.Context<R>)
        yield* sql.withTransaction(Effect.gen(function*() {
          assert.isTrue(yield* here.keys.revoke(merchant.id, issued.apiKey.slug))
          yield* here.merchants.changeStatus(merchant.id, "suspended")
          assert.isTrue(yield* elsewhere(accepts(here.keys, key)))
          assert.strictEqual((yield* elsewhere(here.merchants.findById(merchant.id))).accountStatus, "active")
        }))
        // At once after the commit, before the change feed could report it.
        assert.isFalse(yield* accepts(here.keys, key))
        assert.strictEqual((yield* here.merchants.findById(merchant.id)).accountStatus, "suspended")
      }).pipe(Effect.scoped))
  })
})
