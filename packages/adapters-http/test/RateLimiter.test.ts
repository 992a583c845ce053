import { assert, describe, it } from "@effect/vitest"
import * as RateLimiter from "../src/middleware/RateLimiter.ts"

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
