import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, DateTime, Effect, Exit, Layer, Result, Schema } from "effect"
import { type CurrencyCode, currencyCodes } from "../src/Currency.ts"
import { GameSession } from "../src/GameSession.ts"
import * as PayTable from "../src/games/PayTable.ts"
import { MerchantId } from "../src/Merchant.ts"
import { SettingsChange, type SettingsValues } from "../src/MerchantSettings.ts"
import * as Money from "../src/Money.ts"
import { changeSettings } from "../src/usecases/ChangeSettings.ts"
import { checkStake } from "../src/usecases/PlayRound.ts"
import { decode, type ValidationFailed } from "../src/Validation.ts"
import * as D from "../testing/index.ts"

/** The largest value of a PostgreSQL `bigint`, the type of every `…_minor` column. */
const INT8_MAX = 2n ** 63n - 1n

const sessionIn = (currency: CurrencyCode) =>
  new GameSession({
    id: "00000000-0000-4000-a000-000000000001",
    merchantId: MerchantId.make(7),
    playerId: "p-1",
    gameId: "odd-even",
    operatorSessionId: "s-1",
    currency,
    mode: "demo",
    lobby: true,
    createdAt: DateTime.makeUnsafe(0),
    expiresAt: DateTime.makeUnsafe(0)
  })

const merchantIn = (currency: CurrencyCode, settings: SettingsValues = {}, id = 7) =>
  D.makeMerchant({ id: MerchantId.make(id), email: `m${id}@example.com`, currency, MerchantSettings: D.makeSettings(settings) })

const stakeOf = (text: string, currency: CurrencyCode, settings: SettingsValues = {}) =>
  checkStake(text, sessionIn(currency), merchantIn(currency, settings))

const refusal = (result: Result.Result<unknown, ValidationFailed>) =>
  Result.isFailure(result) ? result.failure.message : "accepted"

describe("the largest stake", () => {
  it("is 10^15 - 1 minor units, so that a payout of it fits a bigint column with room to spare", () => {
    assert.strictEqual(Money.maxStakeMinor, 999_999_999_999_999n)
    const payout = PayTable.payout(Money.maxStakeMinor, PayTable.maxMultiplier)
    assert.strictEqual(payout, 8_999_999_999_999_991_000n, "the largest payout: the largest stake at the 9000x cap")
    assert.isTrue(payout <= INT8_MAX)
  })

  it("refuses a stake above it with ValidationFailed naming stake, even without a maximumStake", () => {
    for (const [text, currency, detail] of [
      ["99999999999999999.99", "EUR", "stake: must be at most 9999999999999.99"],
      ["10000000000000.00", "EUR", "stake: must be at most 9999999999999.99"],
      ["999999999999999999.99", "USD", "stake: must be at most 9999999999999.99"],
      ["1000000000000000", "JPY", "stake: must be at most 999999999999999"],
      ["100000000000.0000", "UYW", "stake: must be at most 99999999999.9999"]
    ] as const) {
      assert.strictEqual(refusal(stakeOf(text, currency)), detail, `${text} ${currency}`)
    }
    assert.strictEqual(Result.getOrThrow(stakeOf("9999999999999.99", "EUR")), Money.maxStakeMinor)
    assert.strictEqual(Result.getOrThrow(stakeOf("999999999999999", "JPY")), Money.maxStakeMinor)
    assert.strictEqual(refusal(stakeOf("10000000000000.00", "EUR", { maximumStake: 500 })), "stake: must be at most 500.00")
  })

  it("refuses what is not an amount naming stake", () => {
    for (const text of ["1e3", "0x10", "1.234", "-1", " 1", "", "NaN", "Infinity", "9".repeat(32)]) {
      assert.match(refusal(stakeOf(text, "EUR")), /^stake: /, text)
    }
  })
})

describe("stake limits as JSON numbers", () => {
  const Currency = Arbitrary.schema(Schema.Literals(currencyCodes))
  const Minor = Arbitrary.map(
    Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: Number(Money.maxStakeMinor) }))),
    BigInt
  )

  it.prop("every amount up to the largest stake survives a JSON number exactly", [Minor, Currency], ([minor, currency]) => {
    const text = Money.format(Money.make(minor, currency))
    const number: unknown = JSON.parse(text)
    assert.isNumber(number)
    assert.strictEqual(Result.getOrThrow(Money.fromNumber(Number(number), currency)).minor, minor)
  })

  it("are read as the decimal they denote, never in exponent notation", () => {
    for (const [value, text] of [[0.1, "0.1"], [0.1 + 0.2, "0.30000000000000004"], [1e-7, "0.0000001"], [1.5e-10, "0.00000000015"],
      [1e21, "1000000000000000000000"], [1.25e22, "12500000000000000000000"], [9999999999999.99, "9999999999999.99"], [0, "0"]] as const) {
      assert.strictEqual(Money.decimalText(value), text)
    }
    assert.isTrue(Result.isFailure(Money.fromNumber(0.125, "EUR")))
    assert.isTrue(Result.isFailure(Money.fromNumber(0.1 + 0.2, "EUR")))
    assert.strictEqual(Result.getOrThrow(Money.fromNumber(0.125, "KWD")).minor, 125n)
  })
})

describe("stake limits", () => {
  it("are compared with stakes in exact minor units", () => {
    const limits = { minimumStake: 0.1, maximumStake: 1.15 }
    assert.strictEqual(Result.getOrThrow(stakeOf("0.10", "EUR", limits)), 10n)
    assert.strictEqual(Result.getOrThrow(stakeOf("1.15", "EUR", limits)), 115n)
    assert.strictEqual(refusal(stakeOf("0.09", "EUR", limits)), "stake: must be at least 0.10")
    assert.strictEqual(refusal(stakeOf("1.16", "EUR", limits)), "stake: must be at most 1.15")
    const big = { maximumStake: 9999999999999.99 }
    assert.strictEqual(Result.getOrThrow(stakeOf("9999999999999.99", "EUR", big)), Money.maxStakeMinor)
  })

  const merchants = D.merchantRepo([
    merchantIn("EUR", {}, 1),
    merchantIn("JPY", {}, 2),
    merchantIn("KWD", {}, 3),
    merchantIn("EUR", { minimumStake: 1, maximumStake: 500 }, 4)
  ])
  const change = (id: number, fields: Record<string, unknown>) =>
    Effect.gen(function*() {
      const decoded = yield* decode(SettingsChange)(fields)
      return yield* changeSettings(MerchantId.make(id), decoded)
    }).pipe(Effect.provide(Layer.mergeAll(merchants, D.anyOperatorUrl)))
  const refused = (exit: Exit.Exit<unknown, { readonly _tag: string; readonly message: string }>) =>
    Exit.isSuccess(exit) ? "accepted" : Exit.findErrorOption(exit).pipe((o) => o._tag === "Some" ? o.value.message : "defect")

  it.effect("may have no more fraction digits than the merchant's currency has: else ValidationFailed naming the field", () =>
    Effect.gen(function*() {
      assert.match(refused(yield* Effect.exit(change(1, { maximumStake: 0.125 }))), /^maximumStake: .*2 fraction digits/)
      assert.match(refused(yield* Effect.exit(change(1, { minimumStake: 0.001 }))), /^minimumStake: /)
      assert.match(refused(yield* Effect.exit(change(2, { minimumStake: 1.5 }))), /^minimumStake: must be a whole amount of JPY/)
      assert.match(refused(yield* Effect.exit(change(1, { maximumStake: 10000000000000 }))), /^maximumStake: must be at most 9999999999999\.99/)
      assert.strictEqual((yield* change(3, { maximumStake: 0.125 })).maximumStake, 0.125)
      assert.strictEqual((yield* change(2, { minimumStake: 100, maximumStake: 999999999999999 })).maximumStake, 999999999999999)
      const saved = yield* change(1, { minimumStake: 0.13, maximumStake: 9999999999999.99 })
      assert.deepStrictEqual([saved.minimumStake, saved.maximumStake], [0.13, 9999999999999.99])
    }))

  it.effect("accept a decimal string as well as a JSON number, and answer a number", () =>
    Effect.gen(function*() {
      const saved = yield* change(4, { minimumStake: "0.50", maximumStake: "1250.5" })
      assert.deepStrictEqual([saved.minimumStake, saved.maximumStake], [0.5, 1250.5])
      assert.match(refused(yield* Effect.exit(change(4, { maximumStake: "0.125" }))), /^maximumStake: /)
      for (const bad of ["1e3", "12.", ".5", "-1", "0", "0.00", "abc", "", "1".repeat(20), "12345678901234.5678"]) {
        assert.match(refused(yield* Effect.exit(change(4, { maximumStake: bad }))), /^maximumStake/, bad)
      }
    }))

  it.effect("stay ordered, compared in minor units", () =>
    Effect.gen(function*() {
      assert.match(refused(yield* Effect.exit(change(4, { minimumStake: 500.01 }))), /^minimumStake: must not be greater than maximumStake/)
      assert.strictEqual((yield* change(4, { minimumStake: 500 })).minimumStake, 500)
    }))
})
