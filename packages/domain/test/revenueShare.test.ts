import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import fc from "fast-check"
import { changedSettings, type SettingsValues } from "../src/MerchantSettings.ts"
import * as RevenueShare from "../src/RevenueShare.ts"
import { type Party, parties, percent, type Shares } from "../src/RevenueShare.ts"

/** A share as a setting holds it: any double in [0, 100], or one with few decimals as operators write them. */
const share = fc.oneof(
  fc.double({ min: 0, max: 100, noNaN: true }),
  fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 10_000),
  fc.constantFrom(0, 100, 33.3, 33.4, 5e-324, Number.MIN_VALUE * 3, 99.99999999999999, 12.5)
)

/** Five shares that add up to at most 100, exactly: drawn, then scaled down by a whole factor until they fit. */
const fitting = fc.tuple(share, share, share, share, share).map((values) => {
  let shares = byIndex(values)
  for (let divisor = 2; !RevenueShare.fitIn100(shares); divisor++) shares = byIndex(values.map((v) => v / divisor))
  return shares
})
const byIndex = (values: ReadonlyArray<number>): Shares => {
  const [provider = 0, superProvider = 0, agent = 0, merchant = 0, user = 0] = values
  return { provider: percent(provider), superProvider: percent(superProvider), agent: percent(agent), merchant: percent(merchant), user: percent(user) }
}

/** A GGR in minor units: small, around the int8 bound, or far beyond any real amount; either sign. */
const ggr = fc.oneof(
  fc.bigInt({ min: -10_000n, max: 10_000n }),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
  fc.constantFrom(0n, 1n, -1n, 99n, -99n)
)

const splitOf = (amount: bigint, shares: Shares) => Result.getOrThrow(RevenueShare.split(amount, shares))
const sign = (n: bigint) => (n > 0n ? 1 : n < 0n ? -1 : 0)
const abs = (n: bigint) => (n < 0n ? -n : n)
const sumOf = (parts: Readonly<Record<Party, bigint>>) => parties.reduce((sum, party) => sum + parts[party], 0n)

describe("RevenueShare.split", () => {
  it("parts plus remainder are the GGR exactly, whatever the GGR and the shares", () => {
    fc.assert(fc.property(ggr, fitting, (amount, shares) => {
      const { parts, remainder } = splitOf(amount, shares)
      assert.strictEqual(sumOf(parts) + remainder, amount)
    }), { numRuns: 2000 })
  })

  it("each part has the GGR's sign and is at most its exact share in size, short of it by less than a minor unit", () => {
    fc.assert(fc.property(ggr, fitting, (amount, shares) => {
      const { parts, remainder } = splitOf(amount, shares)
      for (const party of parties) {
        const part = parts[party]
        const { units, scale } = shares[party]
        const exact = abs(amount) * units // = |ggr| × percent × 10^scale
        const whole = 100n * 10n ** BigInt(scale)
        assert.isTrue(sign(part) === 0 || sign(part) === sign(amount), party)
        assert.isTrue(abs(part) * whole <= exact, party)
        assert.isTrue((abs(part) + 1n) * whole > exact, party)
      }
      assert.isTrue(sign(remainder) === 0 || sign(remainder) === sign(amount))
      assert.isTrue(abs(remainder) <= abs(amount))
    }), { numRuns: 2000 })
  })

  it("a zero share gives a zero part, 100 % of one party gives it all, and a zero GGR gives zeros", () => {
    fc.assert(fc.property(ggr, fitting, (amount, shares) => {
      const zero = splitOf(amount, { ...shares, agent: percent(0) })
      assert.strictEqual(zero.parts.agent, 0n)
      const all = splitOf(amount, { ...byIndex([]), merchant: percent(100) })
      assert.strictEqual(all.parts.merchant, amount)
      assert.strictEqual(all.remainder, 0n)
      const none = splitOf(0n, shares)
      assert.strictEqual(sumOf(none.parts) + none.remainder, 0n)
      assert.isTrue(parties.every((party) => none.parts[party] === 0n))
    }))
  })

  it("rounds toward zero on either side, the remainder carrying the rest", () => {
    const third = byIndex([33.3, 33.3, 33.3])
    const positive = splitOf(1001n, third)
    assert.deepStrictEqual([positive.parts.provider, positive.parts.agent, positive.parts.user, positive.remainder], [333n, 333n, 0n, 2n])
    const negative = splitOf(-1001n, third)
    assert.deepStrictEqual([negative.parts.provider, negative.parts.agent, negative.remainder], [-333n, -333n, -2n])
    const tiny = splitOf(10n ** 400n, byIndex([5e-324]))
    assert.strictEqual(tiny.parts.provider, 10n ** 400n * 5n / 10n ** 326n)
    assert.strictEqual(sumOf(tiny.parts) + tiny.remainder, 10n ** 400n)
  })

  it("refuses shares over 100 %, compared exactly", () => {
    assert.isTrue(Result.isSuccess(RevenueShare.split(100n, byIndex([33.3, 33.3, 33.4]))))
    assert.isTrue(Result.isSuccess(RevenueShare.split(100n, byIndex([0.1, 0.2, 99.7]))))
    const over = RevenueShare.split(100n, byIndex([50, 50, 0, 0, 1e-300]))
    assert.isTrue(Result.isFailure(over))
    fc.assert(fc.property(fc.tuple(share, share, share, share, share), (values) => {
      const shares = byIndex(values)
      assert.strictEqual(Result.isSuccess(RevenueShare.split(1n, shares)), RevenueShare.fitIn100(shares))
    }))
  })
})

describe("RevenueShare.capped", () => {
  it("leaves fitting shares alone and makes any others fit, in party order", () => {
    fc.assert(fc.property(fc.tuple(share, share, share, share, share), (values) => {
      const shares = byIndex(values)
      const applied = RevenueShare.capped(shares)
      assert.isTrue(RevenueShare.fitIn100(applied.shares))
      assert.strictEqual(applied.capped, !RevenueShare.fitIn100(shares))
      if (!applied.capped) assert.strictEqual(applied.shares, shares)
    }))
    const { shares } = RevenueShare.capped(byIndex([60, 30, 20, 5, 0]))
    assert.deepStrictEqual(parties.map((party) => RevenueShare.percentText(shares[party])), ["60", "30", "10", "0", "0"])
  })
})

describe("RevenueShare.percentText", () => {
  it("writes the setting's digits back", () => {
    for (const [value, text] of [[12.5, "12.5"], [0, "0"], [100, "100"], [0.0001, "0.0001"], [33.333333, "33.333333"]] as const) {
      assert.strictEqual(RevenueShare.percentText(percent(value)), text)
    }
    fc.assert(fc.property(share, (value) => {
      assert.strictEqual(Number(RevenueShare.percentText(percent(value))), value)
    }))
  })
})

describe("settings changes", () => {
  const change = (current: SettingsValues, next: Parameters<typeof changedSettings>[0]) =>
    changedSettings(next, "EUR")(current)

  it("refuse shares that would add up to over 100, naming the share set and every share field", () => {
    const refused = change({ providerPercentProfit: 60, agentPercentProfit: 30 }, { userPercentProfit: 10.5 })
    assert.isTrue(Result.isFailure(refused))
    if (Result.isFailure(refused)) {
      assert.strictEqual(refused.failure.field, "userPercentProfit")
      for (const field of Object.values(RevenueShare.shareFields)) assert.include(refused.failure.detail, field)
      assert.include(refused.failure.detail, "100.5")
    }
  })

  it("accept shares of exactly 100, clearing a share, and other changes on shares stored over 100", () => {
    assert.isTrue(Result.isSuccess(change({}, { providerPercentProfit: 33.3, agentPercentProfit: 33.3, userPercentProfit: 33.4 })))
    const stored = { providerPercentProfit: 80, merchantPercentProfit: 80 }
    assert.isTrue(Result.isSuccess(change(stored, { merchantPercentProfit: null })))
    assert.isTrue(Result.isSuccess(change(stored, { hideBalance: true })))
    assert.isTrue(Result.isFailure(change(stored, { merchantPercentProfit: 30 })))
    assert.isTrue(Result.isSuccess(change(stored, { merchantPercentProfit: 20 })))
  })

  it("by the operator itself refuse every share, set or cleared, naming it, and pass any other change", () => {
    for (const field of Object.values(RevenueShare.shareFields)) {
      for (const value of [0, 12.5, null]) {
        const refused = RevenueShare.refuseOwnShareChange({ hideBalance: true, [field]: value })
        assert.strictEqual(refused?._tag, "Forbidden", `${field}: ${value}`)
        assert.include(refused?.detail, field)
      }
    }
    assert.isUndefined(RevenueShare.refuseOwnShareChange({ hideBalance: true, minimumStake: 1, lottoGameProfit: 5 }))
    assert.isUndefined(RevenueShare.refuseOwnShareChange({}))
  })
})
