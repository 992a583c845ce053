import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Stream } from "effect"
import * as TestClock from "effect/testing/TestClock"
import { makeMerchant } from "../testing/Fixtures.ts"
import { MerchantId } from "../src/Merchant.ts"
import { Reports } from "../src/ports/Reports.ts"
import { type RoundFilter, TransactionNotFound, TransactionView } from "../src/Report.ts"
import { lookUpRounds } from "../src/usecases/BackofficeReports.ts"

/** Reports that note the filter of each round list and know one transaction, of merchant 1's round `r-1`. */
const recording = (filters: Array<RoundFilter>) =>
  Layer.succeed(Reports, Reports.of({
    rounds: (_merchantId, filter) => Effect.sync(() => (filters.push(filter), { rounds: [], total: 0 })),
    roundStream: () => Effect.succeed(Stream.empty),
    transaction: (merchantId, transactionId) =>
      merchantId === 1 && transactionId === "t-1"
        ? Effect.succeed(new TransactionView({ transactionId, type: "credit", amount: "1.00", status: "delivered", roundId: "r-1", currency: "ETB" }))
        : Effect.fail(new TransactionNotFound({ transactionId })),
    summary: () => Effect.die("not used"),
    summaryStream: () => Effect.die("not used"),
    ggr: () => Effect.die("not used")
  }))

const page = { page: 1, limit: 20 }
const merchant = (id: number) => makeMerchant({ id: MerchantId.make(id) })

describe("the back office's round look-up", () => {
  it.effect("lists today's rounds (UTC) when no period is given, and the given period otherwise", () => {
    const filters: Array<RoundFilter> = []
    return Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-11-27T15:30:00Z"))
      yield* lookUpRounds(merchant(1), { playerId: "p-1" }, page)
      assert.deepStrictEqual([filters[0]?.from.toISOString(), filters[0]?.to.toISOString(), filters[0]?.playerId], [
        "2026-11-27T00:00:00.000Z", "2026-11-28T00:00:00.000Z", "p-1"
      ])
      const backwards = yield* Effect.exit(lookUpRounds(merchant(1), { from: new Date("2026-12-01T00:00:00Z") }, page))
      assert.isTrue(Exit.isFailure(backwards), "a period that ends before it starts is refused")
    }).pipe(Effect.provide(recording(filters)))
  })

  it.effect("finds a round by its id, or by a transaction's, over the whole history; another merchant's transaction finds nothing", () => {
    const filters: Array<RoundFilter> = []
    return Effect.gen(function*() {
      yield* lookUpRounds(merchant(1), { roundId: "r-9" }, page)
      yield* lookUpRounds(merchant(1), { transactionId: "t-1" }, page)
      assert.deepStrictEqual(filters.map((f) => [f.roundId, f.from.getUTCFullYear() <= 2000, f.to.getUTCFullYear() >= 9999]), [
        ["r-9", true, true],
        ["r-1", true, true]
      ])
      const elsewhere = yield* lookUpRounds(merchant(2), { transactionId: "t-1" }, page)
      const mismatched = yield* lookUpRounds(merchant(1), { transactionId: "t-1", roundId: "r-2" }, page)
      assert.deepStrictEqual([elsewhere.data, elsewhere.meta.totalElements, mismatched.data], [[], 0, []])
      assert.strictEqual(filters.length, 2, "nothing more was listed")
    }).pipe(Effect.provide(recording(filters)))
  })
})
