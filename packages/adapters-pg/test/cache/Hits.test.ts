import { assert, describe, it } from "@effect/vitest"
import { Cache, Deferred, Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import * as Hits from "../../src/cache/Hits.ts"

/** A lookup that counts its calls and answers `answer(key)`. */
const counting = <A, E>(answer: (key: string) => Effect.Effect<A, E>) => {
  const calls = { value: 0 }
  return { calls, lookup: (key: string) => Effect.suspend(() => (calls.value++, answer(key))) }
}

describe("Hits (the repository caches' one mechanism)", () => {
  it.effect("answers a repeated key from memory within the TTL, then asks again", () =>
    Effect.gen(function*() {
      const source = counting((key) => Effect.succeed(key.length))
      const cache = yield* Hits.make(source.lookup, 5000)
      assert.strictEqual(yield* Cache.get(cache, "abc"), 3)
      assert.strictEqual(yield* Cache.get(cache, "abc"), 3)
      assert.strictEqual(source.calls.value, 1)
      yield* TestClock.adjust(4999)
      yield* Cache.get(cache, "abc")
      assert.strictEqual(source.calls.value, 1)
      yield* TestClock.adjust(1)
      yield* Cache.get(cache, "abc")
      assert.strictEqual(source.calls.value, 2)
    }))

  it.effect("never keeps a failure, nor a value `keep` refuses", () =>
    Effect.gen(function*() {
      const failing = counting((key) => Effect.fail(`no ${key}`))
      const refusals = yield* Hits.make(failing.lookup, 5000)
      assert.isTrue(Exit.isFailure(yield* Effect.exit(Cache.get(refusals, "x"))))
      assert.isTrue(Exit.isFailure(yield* Effect.exit(Cache.get(refusals, "x"))))
      assert.strictEqual(failing.calls.value, 2)
      const empty = counting(() => Effect.succeed(""))
      const kept = yield* Hits.make(empty.lookup, 5000, (value) => value !== "")
      yield* Cache.get(kept, "x")
      yield* Cache.get(kept, "x")
      assert.strictEqual(empty.calls.value, 2)
    }))

  it.effect("a lookup in flight when its key is invalidated is not kept", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      let version = 1
      const source = counting(() => Effect.sync(() => version).pipe(Effect.tap(() => Deferred.await(gate))))
      const cache = yield* Hits.make(source.lookup, 60_000)
      const inFlight = yield* Effect.forkChild(Cache.get(cache, "m"))
      yield* Effect.yieldNow
      version = 2
      yield* Cache.invalidate(cache, "m")
      yield* Deferred.succeed(gate, undefined)
      assert.strictEqual(yield* Fiber.join(inFlight), 1)
      assert.strictEqual(yield* Cache.get(cache, "m"), 2)
    }))

  it.effect("keeps at most its capacity, dropping the least recently used", () =>
    Effect.gen(function*() {
      const source = counting((key) => Effect.succeed(key))
      const cache = yield* Hits.make(source.lookup, 60_000)
      for (let i = 0; i <= Hits.capacity; i++) yield* Cache.get(cache, `k${i}`)
      assert.strictEqual(yield* Cache.size(cache), Hits.capacity)
      const before = source.calls.value
      yield* Cache.get(cache, `k${Hits.capacity}`)
      assert.strictEqual(source.calls.value, before)
      yield* Cache.get(cache, "k0")
      assert.strictEqual(source.calls.value, before + 1)
    }))
})
