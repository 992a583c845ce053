import { assert, describe, it } from "@effect/vitest"
import type { ReportsBusy } from "@gateway/domain/Report"
import { Clock, Effect, Fiber, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as ReportBudget from "../src/db/ReportBudget.ts"

/** What a report refused by the budget is told: its scope and `retry-after`, or "ran". */
const outcome = <A>(effect: Effect.Effect<A, ReportsBusy>) =>
  Effect.match(effect, {
    onFailure: (error) => `${error._tag} ${error.scope} ${error.retryAfterSeconds}`,
    onSuccess: () => "ran"
  })

/** A statement that keeps its connection busy for `ms` (on the test clock). */
const busyFor = (ms: number) => Effect.sleep(ms)

describe("ReportBudget", () => {
  it.effect("a merchant runs one CSV export at a time: a second is refused at once, the first runs on, and pages still run", () =>
    Effect.gen(function*() {
      const budget = ReportBudget.make({ total: 4, perMerchant: 2, exports: 4, exportsPerMerchant: 1 })
      const first = yield* budget.streamWithin(1, Stream.fromEffect(busyFor(10_000)))
      const running = yield* Stream.runDrain(first).pipe(Effect.forkChild)
      assert.strictEqual(yield* outcome(budget.streamWithin(1, Stream.empty)), "ReportsBusy merchant 2")
      assert.strictEqual(yield* outcome(budget.streamWithin(2, Stream.empty)), "ran", "another merchant's export runs")
      assert.strictEqual(yield* outcome(budget.within(1)(Effect.void)), "ran", "the merchant's pages do not wait for its export")
      yield* TestClock.adjust(10_000)
      yield* Fiber.join(running)
      assert.strictEqual(yield* outcome(budget.streamWithin(1, Stream.empty)), "ran", "the place is free once the export ends")
    }))

  it.effect("caps the exports of the whole gateway apart from its queries", () =>
    Effect.gen(function*() {
      const budget = ReportBudget.make({ total: 1, perMerchant: 1, exports: 1, exportsPerMerchant: 1 })
      const held = yield* budget.streamWithin(1, Stream.fromEffect(busyFor(5_000)))
      const running = yield* Stream.runDrain(held).pipe(Effect.forkChild)
      assert.strictEqual(yield* outcome(budget.streamWithin(2, Stream.empty)), "ReportsBusy gateway 2")
      assert.strictEqual(yield* outcome(budget.within(2)(Effect.void)), "ran", "a page is not refused for an export")
      yield* TestClock.adjust(5_000)
      yield* Fiber.join(running)
    }))

  it.effect("keeps a merchant's reports to their share of the database's time, another merchant's untouched", () =>
    Effect.gen(function*() {
      const budget = ReportBudget.make({ total: 10, perMerchant: 10, dbShare: 0.25, dbBurstMs: 1_000 })
      // A query of 2 s: admitted (the burst is not empty), then the merchant owes 1 s, 4 s at a quarter
      const query = yield* budget.within(1)(busyFor(2_000)).pipe(Effect.forkChild)
      yield* TestClock.adjust(2_000)
      yield* Fiber.join(query)
      assert.strictEqual(yield* outcome(budget.within(1)(Effect.void)), "ReportsBusy database-time 5")
      assert.strictEqual(yield* outcome(budget.streamWithin(1, Stream.empty)), "ReportsBusy database-time 5")
      assert.strictEqual(yield* outcome(budget.within(2)(Effect.void)), "ran", "another merchant has its own share")
      yield* TestClock.adjust(4_010)
      assert.strictEqual(yield* outcome(budget.within(1)(Effect.void)), "ran", "the share is back")
    }))

  it.effect("a page that would wait at most 3 s for its database time waits, holding the merchant's place, instead of a 429", () =>
    Effect.gen(function*() {
      const budget = ReportBudget.make({ total: 10, perMerchant: 1, dbShare: 0.5, dbBurstMs: 1_000 })
      const query = yield* budget.within(1)(busyFor(2_000)).pipe(Effect.forkChild)
      yield* TestClock.adjust(2_000)
      yield* Fiber.join(query) // owes 1 s: 2 s at half
      const next = yield* outcome(budget.within(1)(Clock.currentTimeMillis)).pipe(Effect.forkChild)
      yield* TestClock.adjust(100)
      assert.strictEqual(yield* outcome(budget.within(1)(Effect.void)), "ReportsBusy merchant 2", "one wait per merchant")
      yield* TestClock.adjust(2_000)
      assert.strictEqual(yield* Fiber.join(next), "ran")
    }))

  it.effect("keeps all merchants' reports together to the gateway's share of the database's time", () =>
    Effect.gen(function*() {
      const budget = ReportBudget.make({ total: 10, perMerchant: 10, dbShare: 0.5, dbShareTotal: 0.1, dbBurstMs: 500 })
      // Merchants 1 and 2 each within their own share (a burst of 500 ms), together past the gateway's (1,000 ms)
      const one = yield* budget.within(1)(busyFor(800)).pipe(Effect.forkChild)
      const two = yield* budget.within(2)(busyFor(800)).pipe(Effect.forkChild)
      yield* TestClock.adjust(800)
      yield* Fiber.join(one)
      yield* Fiber.join(two)
      yield* TestClock.adjust(700) // each merchant back above empty (−300 + 350), the gateway still owes 530 ms
      assert.strictEqual(yield* outcome(budget.within(3)(Effect.void)), "ReportsBusy gateway 6", "a third merchant waits too")
      assert.strictEqual(yield* outcome(budget.within(1)(Effect.void)), "ReportsBusy gateway 6")
      yield* TestClock.adjust(3_000)
      const third = yield* outcome(budget.within(3)(Effect.void)).pipe(Effect.forkChild) // 2.3 s: waited
      yield* TestClock.adjust(2_400)
      assert.strictEqual(yield* Fiber.join(third), "ran")
    }))

  it.effect("runs one report statement at a time in all: another merchant's page waits for the turn, not refused", () =>
    Effect.gen(function*() {
      const budget = ReportBudget.make({ total: 10, perMerchant: 10, dbStatements: 1 })
      const ends: Array<string> = []
      const statement = (name: string, ms: number) => Effect.andThen(busyFor(ms), Effect.sync(() => ends.push(name)))
      const one = yield* budget.within(1)(statement("first", 1_000)).pipe(Effect.forkChild)
      const two = yield* budget.within(2)(statement("second", 100)).pipe(Effect.forkChild)
      yield* TestClock.adjust(1_000)
      assert.deepStrictEqual(ends, ["first"], "the second has not run beside the first")
      yield* TestClock.adjust(100)
      yield* Fiber.join(one)
      yield* Fiber.join(two)
      assert.deepStrictEqual(ends, ["first", "second"])
    }))

  it.effect("never makes a merchant wait more than half a minute, however long one statement ran", () =>
    Effect.gen(function*() {
      const budget = ReportBudget.make({ total: 10, perMerchant: 10, dbShare: 0.25, dbBurstMs: 1_000 })
      const query = yield* budget.within(1)(busyFor(20_000)).pipe(Effect.forkChild)
      yield* TestClock.adjust(20_000)
      yield* Fiber.join(query)
      // 19 s owed at a quarter would be 76 s; the debt is forgiven past 30 s
      assert.strictEqual(yield* outcome(budget.within(1)(Effect.void)), "ReportsBusy database-time 31")
      yield* TestClock.adjust(ReportBudget.maxWaitMs + 5)
      assert.strictEqual(yield* outcome(budget.within(1)(Effect.void)), "ran")
    }))

  it.effect("an export over its merchant's share waits between batches instead of being cut", () =>
    Effect.gen(function*() {
      const budget = ReportBudget.make({ total: 10, perMerchant: 10, dbShare: 0.5, dbBurstMs: 100 })
      const started: Array<number> = []
      const batch = Effect.gen(function*() {
        started.push(yield* Clock.currentTimeMillis)
        yield* busyFor(100)
      })
      const stream = yield* budget.streamWithin(1, Stream.range(1, 3).pipe(Stream.mapEffect(() => budget.batch(1)(batch))))
      const fiber = yield* Stream.runDrain(stream).pipe(Effect.forkChild)
      yield* TestClock.adjust(10_000)
      yield* Fiber.join(fiber)
      // The first batch empties the burst; then each batch of 100 ms waits for the 200 ms that refill it at half a
      // connection's time (and 2 ms for the bucket to be above empty)
      assert.deepStrictEqual(started, [0, 102, 302])
    }))
})
