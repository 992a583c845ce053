import { assert, describe, it } from "@effect/vitest"
import { Option, Result, Schema } from "effect"
import { countryCodes, currencyOfCountry } from "../src/Country.ts"
import { currencyCodes, resolveLaunchCurrency } from "../src/Currency.ts"

const Code = Schema.Literals(currencyCodes)

describe("currency rule", () => {
  it.prop(
    "a launch succeeds exactly when the parameter and the player's currency both equal the merchant's",
    [Code, Schema.UndefinedOr(Code), Schema.UndefinedOr(Code)],
    ([merchant, requested, player]) => {
      const result = resolveLaunchCurrency({ merchant, requested, player })
      const allowed = (requested === undefined || requested === merchant) && (player === undefined || player === merchant)
      assert.strictEqual(Result.isSuccess(result), allowed)
      if (Result.isSuccess(result)) assert.strictEqual(result.success, merchant)
      if (Result.isFailure(result)) {
        assert.strictEqual(result.failure._tag, "CurrencyMismatch")
        assert.include(result.failure.message, "multi-currency")
      }
    }
  )

  it("names the parameter first when both differ", () => {
    const result = resolveLaunchCurrency({ merchant: "ETB", requested: "USD", player: "EUR" })
    assert.isTrue(Result.isFailure(result))
    if (Result.isFailure(result)) assert.strictEqual(result.failure.source, "param")
  })

  it("a parameter that differs from the player's currency is a mismatch even when one matches the merchant", () => {
    assert.isTrue(Result.isFailure(resolveLaunchCurrency({ merchant: "ETB", requested: "ETB", player: "USD" })))
    assert.isTrue(Result.isFailure(resolveLaunchCurrency({ merchant: "ETB", requested: "USD", player: "ETB" })))
  })

  it("every country maps to a known currency", () => {
    assert.isAbove(countryCodes.length, 240)
    for (const country of countryCodes) {
      const currency = currencyOfCountry(country)
      assert.isTrue(Option.isSome(currency) && currencyCodes.includes(currency.value), country)
    }
    assert.deepStrictEqual(currencyOfCountry("ET"), Option.some("ETB"))
    assert.deepStrictEqual(currencyOfCountry("DE"), Option.some("EUR"))
    assert.isTrue(Option.isNone(currencyOfCountry("AQ")))
  })
})
