import { assert, describe, it } from "@effect/vitest"
import { Clock, Deferred, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { GameId } from "../../domain/src/Game.ts"
import { MerchantId } from "../../domain/src/Merchant.ts"
import { GameCatalog } from "../../domain/src/ports/GameCatalog.ts"
import { MerchantRepo } from "../../domain/src/ports/MerchantRepo.ts"
import { gameCatalog, makeMerchant, merchantRepo, oddEven } from "../../domain/test/doubles.ts"
import * as ReadCache from "../src/ReadCache.ts"

const id = MerchantId.make(7)

/** The in-memory repository with a counter of `findById` calls. */
const countingMerchants = Effect.gen(function*() {
  const inner = yield* Effect.provide(Effect.gen(function*() { return yield* MerchantRepo }), merchantRepo([makeMerchant()]))
  const reads = { value: 0 }
  const counted = MerchantRepo.of({ ...inner, findById: (m) => Effect.suspend(() => (reads.value++, inner.findById(m))) })
  return { counted, reads }
})

describe("ReadCache", () => {
  it.effect("serves a merchant from memory until the TTL passes", () =>
    Effect.gen(function*() {
      const { counted, reads } = yield* countingMerchants
      const cached = ReadCache.merchants(counted, 1000, yield* Clock.Clock)
      yield* cached.findById(id)
      yield* cached.findById(id)
      assert.strictEqual(reads.value, 1)
      yield* TestClock.adjust(1001)
      yield* cached.findById(id)
      assert.strictEqual(reads.value, 2)
    }))

  it.effect("a status change through this instance is seen at once", () =>
    Effect.gen(function*() {
      const { counted } = yield* countingMerchants
      const cached = ReadCache.merchants(counted, 60_000, yield* Clock.Clock)
      assert.strictEqual((yield* cached.findById(id)).accountStatus, "active")
      yield* cached.changeStatus(id, "suspended")
      assert.strictEqual((yield* cached.findById(id)).accountStatus, "suspended")
    }))

  it.effect("a read that was in flight during a change is not kept", () =>
    Effect.gen(function*() {
      const { counted } = yield* countingMerchants
      const gate = yield* Deferred.make<void>()
      const slow = MerchantRepo.of({
        ...counted,
        findById: (m) => counted.findById(m).pipe(Effect.tap(() => Deferred.await(gate)))
      })
      const cached = ReadCache.merchants(slow, 60_000, yield* Clock.Clock)
      const inFlight = yield* Effect.forkChild(cached.findById(id))
      yield* Effect.yieldNow
      yield* cached.changeStatus(id, "suspended")
      yield* Deferred.succeed(gate, undefined)
      assert.strictEqual((yield* Fiber.join(inFlight)).accountStatus, "active")
      assert.strictEqual((yield* cached.findById(id)).accountStatus, "suspended")
    }))

  it.effect("a retired game is not launchable through this instance at once", () =>
    Effect.gen(function*() {
      const inner = yield* Effect.provide(Effect.gen(function*() { return yield* GameCatalog }), gameCatalog([oddEven]))
      const cached = ReadCache.catalog(inner, 60_000, yield* Clock.Clock)
      assert.strictEqual((yield* cached.find("odd-even")).id, "odd-even")
      yield* cached.retire(GameId.make("odd-even"))
      const exit = yield* Effect.exit(cached.find("odd-even"))
      assert.strictEqual(exit._tag, "Failure")
    }))
})
