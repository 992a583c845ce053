import { assert, describe, layer } from "@effect/vitest"
import type { GameSession } from "@gateway/domain/GameSession"
import { type Merchant, MerchantId } from "@gateway/domain/Merchant"
import { maxStakeMinor } from "@gateway/domain/Money"
import { GameSessionRepo } from "@gateway/domain/ports/GameSessionRepo"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { Reports } from "@gateway/domain/ports/Reports"
import { reportSummary } from "@gateway/domain/usecases/Reports"
import { revenueShare, revenueShares } from "@gateway/domain/usecases/RevenueShare"
import { Effect, Exit, Layer, Result } from "effect"
import * as ReportsPg from "../src/ReportsPg.ts"
import { demoRound, merchant, realRound, sessionOf, walletLayer } from "./walletFixtures.ts"

const testLayer = ReportsPg.layer.pipe(Layer.provideMerge(walletLayer))

const range = { from: new Date("2026-04-01T00:00:00Z"), to: new Date("2026-04-03T00:00:00Z") }
const inRange = new Date("2026-04-02T12:00:00Z")

const sessionFor = (m: Merchant, mode: "real" | "demo" = "real") => sessionOf(m, "player-a", "op-a", mode)

/** A real round of `stake`, settled with `payout` or failed (refunded), moved to `at`. */
const round = (session: GameSession, stake: bigint, at: Date, close: "settle" | "fail", payout = 0n) =>
  realRound(session, stake, close, payout, at)

describe("ReportsPg.ggr and the revenue share", () => {
  layer(testLayer, { excludeTestServices: true })((it) => {
    it.effect("gives each merchant's GGR of the period as the summary's total does, and splits it exactly", () =>
      Effect.gen(function*() {
        const reports = yield* Reports
        const merchants = yield* MerchantRepo
        const m = yield* merchant
        const other = yield* merchant
        const idle = yield* merchant
        const a = yield* sessionFor(m)
        yield* round(a, 1001n, inRange, "settle", 0n)
        yield* round(a, maxStakeMinor, inRange, "settle", 2n * maxStakeMinor)
        yield* round(a, 500n, inRange, "fail")
        yield* round(a, 7000n, range.to, "settle", 0n)
        yield* round(yield* sessionFor(other), 900n, inRange, "settle", 100n)
        const demo = yield* sessionFor(m, "demo")
        yield* (yield* GameSessionRepo).settleDemo(demo.id, demoRound(300n, 0n)).pipe(Effect.orDie)

        const ggr = yield* reports.ggr([m, other, idle], range)
        assert.deepStrictEqual([...ggr.entries()].sort(([x], [y]) => x - y), [[m.id, 1001n - maxStakeMinor], [other.id, 800n]])
        const summary = yield* reportSummary(m, range, "day", { page: 1, limit: 100 })
        assert.strictEqual(summary.total.ggr, "-9999999999989.98")
        const other2 = yield* reports.ggr([{ id: other.id, currency: "EUR" }], range)
        assert.strictEqual(other2.size, 0, "only the ledger rows in the merchant's currency count")
        assert.strictEqual((yield* reports.ggr([], range)).size, 0)

        yield* merchants.changeSettings(m.id, () =>
          Result.succeed({ providerPercentProfit: 33.3, agentPercentProfit: 12.5, userPercentProfit: 0.01 }))
        const report = yield* revenueShare(m.id, range)
        assert.strictEqual(report.ggr, summary.total.ggr)
        assert.strictEqual(report.currency, "ETB")
        assert.deepStrictEqual(report.parts.map((p) => [p.party, p.percent, p.amount]), [
          ["provider", "33.3", "-3329999999996.66"],
          ["superProvider", "0", "0.00"],
          ["agent", "12.5", "-1249999999998.74"],
          ["merchant", "0", "0.00"],
          ["user", "0.01", "-999999999.99"]
        ])
        assert.strictEqual(report.remainder, "-5418999999994.59")
        assert.isFalse(report.capped)

        // Shares stored before their sum was checked are capped in party order.
        yield* merchants.changeSettings(other.id, () =>
          Result.succeed({ providerPercentProfit: 70, agentPercentProfit: 50, userPercentProfit: 10 }))
        const capped = yield* revenueShare(other.id, range)
        assert.deepStrictEqual(capped.parts.map((p) => [p.percent, p.amount]), [
          ["70", "5.60"],
          ["0", "0.00"],
          ["30", "2.40"],
          ["0", "0.00"],
          ["0", "0.00"]
        ])
        assert.deepStrictEqual([capped.remainder, capped.capped], ["0.00", true])

        const page = yield* revenueShares({ page: 1, limit: 100, search: "@wallet.example" }, range)
        const listed = new Map(page.data.map((r) => [r.merchantId, r]))
        assert.deepStrictEqual(listed.get(m.id)?.parts, report.parts)
        assert.strictEqual(listed.get(idle.id)?.ggr, "0.00")
        assert.strictEqual(listed.get(idle.id)?.remainder, "0.00")

        const missing = yield* Effect.exit(revenueShare(MerchantId.make(idle.id + 1_000_000), range))
        assert.isTrue(Exit.isFailure(missing))
        const tooLong = yield* Effect.exit(revenueShare(m.id, { from: new Date("2025-01-01T00:00:00Z"), to: range.to }))
        assert.isTrue(Exit.isFailure(tooLong))
      }))
  })
})
