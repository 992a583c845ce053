import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Result, Schema } from "effect"
import { type CurrencyCode, currencyCodes, minorUnits } from "../src/Currency.ts"
import * as Money from "../src/Money.ts"

const Currency = Arbitrary.schema(Schema.Literals(currencyCodes))
const Minor = Arbitrary.map(Arbitrary.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))), BigInt)

const parse = (text: string, currency: CurrencyCode) => Result.getOrThrow(Money.parse(text, currency)).minor

describe("Money", () => {
  it.prop("format then parse gives the same minor units, with exactly the currency's digits", [Minor, Currency], ([minor, currency]) => {
    const text = Money.format(Money.make(minor, currency))
    assert.strictEqual(parse(text, currency), minor)
    const fraction = text.split(".")[1] ?? ""
    assert.strictEqual(fraction.length, minorUnits(currency))
  })

  it("formats and parses the usual cases", () => {
    assert.strictEqual(Money.format(Money.make(1250n, "EUR")), "12.50")
    assert.strictEqual(Money.format(Money.make(5n, "EUR")), "0.05")
    assert.strictEqual(Money.format(Money.make(0n, "ETB")), "0.00")
    assert.strictEqual(Money.format(Money.make(1500n, "JPY")), "1500")
    assert.strictEqual(Money.format(Money.make(1234n, "KWD")), "1.234")
    assert.strictEqual(Money.format(Money.make(-1250n, "EUR")), "-12.50")
    assert.strictEqual(parse("12.5", "EUR"), 1250n)
    assert.strictEqual(parse("12", "EUR"), 1200n)
    assert.strictEqual(parse("0.01", "EUR"), 1n)
    assert.strictEqual(parse("999999999999999999.99", "USD"), 99999999999999999999n)
  })

  it("refuses more digits than the currency has, signs, exponents and junk, never rounding", () => {
    for (const [text, currency] of [["12.505", "EUR"], ["1.5", "JPY"], ["-1.00", "EUR"], ["1e3", "EUR"], ["", "EUR"],
      [" 1", "EUR"], ["01.00", "EUR"], ["1.", "EUR"], [".5", "EUR"], ["0x10", "EUR"], ["1".repeat(19), "EUR"],
      ["NaN", "EUR"]] as const) {
      const result = Money.parse(text, currency)
      assert.isTrue(Result.isFailure(result), text)
      if (Result.isFailure(result)) assert.include(result.failure.message, currency)
    }
  })

  it.prop(
    "a balance plus a payout is exact, negative balances included: format(b + p) for every balance the currency can hold",
    [Minor, Minor, Currency, Arbitrary.schema(Schema.Boolean)],
    ([balance, payout, currency, negative]) => {
      const signed = negative ? -balance : balance
      const text = Money.format(Money.make(signed, currency))
      assert.strictEqual(Money.addToBalance(text, payout, currency), Money.format(Money.make(signed + payout, currency)))
    }
  )

  it("keeps the fraction digits an operator's balance has beyond the currency, and refuses what is not a decimal", () => {
    assert.strictEqual(Money.addToBalance("-5.00", 1950n, "ETB"), "14.50")
    assert.strictEqual(Money.addToBalance("-20.00", 1950n, "ETB"), "-0.50")
    assert.strictEqual(Money.addToBalance("12.345", 1950n, "ETB"), "31.845")
    assert.strictEqual(Money.addToBalance("-3", 200n, "JPY"), "197")
    assert.isUndefined(Money.addToBalance("1e3", 1n, "ETB"))
  })
})
