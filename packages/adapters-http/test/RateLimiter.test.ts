import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer } from "effect"
import { RateLimiter as Budgets } from "effect/persistence"
import * as RateLimiter from "../src/middleware/RateLimiter.ts"
import * as SharedRateLimiter from "../src/middleware/SharedRateLimiter.ts"

const clock = (start = 0) => {
  const time = { now: start }
  return { time, now: () => time.now }
}

describe("token buckets", () => {
  it("lets a burst through, then refills at rps with retry-after in whole seconds", () => {
    const { time, now } = clock()
    const buckets = RateLimiter.makeBuckets({ rps: 2, burst: 4 }, now)
    assert.deepStrictEqual([1, 2, 3, 4].map(() => buckets.take("a")), [0, 0, 0, 0])
    assert.strictEqual(buckets.take("a"), 1)
    time.now += 499
    assert.strictEqual(buckets.take("a"), 1)
    time.now += 1
    assert.strictEqual(buckets.take("a"), 0)
    assert.strictEqual(buckets.take("a"), 1)
    assert.strictEqual(buckets.take("b"), 0)
  })

  it("answers retry-after of at least one second, rounded up", () => {
    const { now } = clock()
    const slow = RateLimiter.makeBuckets({ rps: 0.1, burst: 1 }, now)
    assert.strictEqual(slow.take("a"), 0)
    assert.strictEqual(slow.take("a"), 10)
    const fast = RateLimiter.makeBuckets({ rps: 1000, burst: 1 }, now)
    assert.strictEqual(fast.take("a"), 0)
    assert.strictEqual(fast.take("a"), 1)
  })

  it("never holds more than maxKeys buckets, dropping the least recently used", () => {
    const { now } = clock()
    const buckets = RateLimiter.makeBuckets({ rps: 1, burst: 1, maxKeys: 3 }, now)
    for (const key of ["a", "b", "c"]) buckets.take(key)
    assert.strictEqual(buckets.take("a"), 1)
    buckets.take("d")
    assert.strictEqual(buckets.size(), 3)
    assert.strictEqual(buckets.take("a"), 1)
    assert.strictEqual(buckets.take("b"), 0)
  })

  it("sweeps buckets that have refilled, once a minute", () => {
    const { time, now } = clock()
    const buckets = RateLimiter.makeBuckets({ rps: 1, burst: 5 }, now)
    for (let i = 0; i < 1000; i++) buckets.take(`k${i}`)
    assert.strictEqual(buckets.size(), 1000)
    time.now += 60_000
    buckets.take("fresh")
    assert.strictEqual(buckets.size(), 1)
  })
})

describe("rate limits shared through a RateLimiterStore (REDIS_URL)", () => {
  const options = { rps: 1, burst: 3 }
  const refusedAfter = (limiter: RateLimiter.RateLimiter["Service"], key: string, tries: number) =>
    Effect.gen(function*() {
      const outcomes: Array<number> = []
      for (let n = 0; n < tries; n++) {
        const exit = yield* Effect.exit(limiter.take(key, "apiKey"))
        outcomes.push(Exit.isSuccess(exit) ? 0 : Exit.findErrorOption(exit).pipe((e) => e._tag === "Some" ? e.value.retryAfterSeconds : -1))
      }
      return outcomes
    })

  it.effect("two limiters on one store spend one budget, and a 429 says when to retry", () =>
    Effect.gen(function*() {
      const store = yield* Layer.build(Budgets.layerStoreMemory)
      const limiter = () => Effect.provide(Layer.build(SharedRateLimiter.layerShared(options)), store)
      const a = Context.get(yield* limiter(), RateLimiter.RateLimiter)
      const b = Context.get(yield* limiter(), RateLimiter.RateLimiter)
      assert.deepStrictEqual(yield* refusedAfter(a, "k", 2), [0, 0])
      assert.deepStrictEqual(yield* refusedAfter(b, "k", 2), [0, 1])
      assert.deepStrictEqual(yield* refusedAfter(a, "k", 1), [1])
      assert.deepStrictEqual(yield* refusedAfter(b, "other", 1), [0])
    }).pipe(Effect.scoped))

  it.effect("a store that fails charges the instance's own buckets: limits hold, requests are not refused for it", () =>
    Effect.gen(function*() {
      const down = new Budgets.RateLimiterError({ reason: new Budgets.RateLimitStoreError({ message: "Redis is down" }) })
      const failing = Layer.succeed(Budgets.RateLimiterStore, Budgets.RateLimiterStore.of({
        fixedWindow: () => Effect.fail(down),
        tokenBucket: () => Effect.fail(down),
        adaptiveConsume: () => Effect.fail(down),
        adaptiveFeedback: () => Effect.fail(down)
      }))
      const limiter = Context.get(
        yield* Effect.provide(Layer.build(SharedRateLimiter.layerShared(options)), yield* Layer.build(failing)),
        RateLimiter.RateLimiter
      )
      assert.deepStrictEqual(yield* refusedAfter(limiter, "k", 4), [0, 0, 0, 1])
    }).pipe(Effect.scoped))
})
