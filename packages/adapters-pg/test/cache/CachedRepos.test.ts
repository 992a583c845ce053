import { assert, describe, it } from "@effect/vitest"
import { MerchantId } from "@gateway/domain/Merchant"
import { makeMerchant, makeMerchantRepo } from "@gateway/domain/testing"
import { Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import * as CachedMerchantRepo from "../../src/cache/CachedMerchantRepo.ts"

const id = MerchantId.make(7)

describe("CachedMerchantRepo", () => {
  it.effect("serves a merchant from memory until the TTL passes", () =>
    Effect.gen(function*() {
      const inner = makeMerchantRepo([makeMerchant()])
      const { service: cached } = yield* CachedMerchantRepo.make(inner.service, 1000)
      yield* cached.findById(id)
      yield* cached.findById(id)
      assert.strictEqual(inner.reads(), 1)
      yield* TestClock.adjust(1001)
      yield* cached.findById(id)
      assert.strictEqual(inner.reads(), 2)
    }))

  it.effect("a status or settings change through this instance is seen at once; another instance's within the TTL", () =>
    Effect.gen(function*() {
      const inner = makeMerchantRepo([makeMerchant()])
      const { service: cached } = yield* CachedMerchantRepo.make(inner.service, 60_000)
      assert.strictEqual((yield* cached.findById(id)).accountStatus, "active")
      yield* cached.changeStatus(id, "suspended")
      assert.strictEqual((yield* cached.findById(id)).accountStatus, "suspended")
      inner.put(makeMerchant({ accountStatus: "active" }))
      assert.strictEqual((yield* cached.findById(id)).accountStatus, "suspended")
      yield* TestClock.adjust(60_000)
      assert.strictEqual((yield* cached.findById(id)).accountStatus, "active")
    }))

  it.effect("never keeps a missing merchant, and ttl 0 is no cache at all", () =>
    Effect.gen(function*() {
      const inner = makeMerchantRepo([])
      const { service: cached } = yield* CachedMerchantRepo.make(inner.service, 60_000)
      assert.isTrue(Exit.isFailure(yield* Effect.exit(cached.findById(id))))
      inner.put(makeMerchant())
      assert.strictEqual((yield* cached.findById(id)).id, id)
      assert.strictEqual((yield* CachedMerchantRepo.make(inner.service, 0)).service, inner.service)
    }))
})
