import { Result, Schema } from "effect"
import { type CurrencyCode, minorUnits } from "./Currency.ts"

/** An amount in a currency, held as integer minor units (cents), never a float. */
export interface Money {
  readonly currency: CurrencyCode
  readonly minor: bigint
}

/** A decimal string that is not a valid amount of its currency. */
export class InvalidAmount extends Schema.TaggedError<InvalidAmount>()("InvalidAmount", {
  input: Schema.String,
  currency: Schema.String,
  digits: Schema.Int
}) {
  override get message(): string {
    return `'${this.input.slice(0, 40)}' is not an amount of ${this.currency}: ` +
      `expected a non-negative decimal with at most ${this.digits} fraction digits`
  }
}

/** At most 18 integer digits: amounts stay far inside PostgreSQL `numeric` and `bigint`. */
const AMOUNT = /^(0|[1-9][0-9]{0,17})(?:\.([0-9]+))?$/

/**
 * Parses a non-negative decimal string (`"12.5"`, `"12.50"`, `"0"`) into
 * minor units of the currency. More fraction digits than the currency has
 * are refused, never rounded.
 */
export const parse = (input: string, currency: CurrencyCode): Result.Result<Money, InvalidAmount> => {
  const digits = minorUnits(currency)
  const match = AMOUNT.exec(input)
  const whole = match?.[1]
  const fraction = match?.[2] ?? ""
  if (whole === undefined || fraction.length > digits) {
    return Result.fail(new InvalidAmount({ input, currency, digits }))
  }
  return Result.succeed({ currency, minor: BigInt(whole + fraction.padEnd(digits, "0")) })
}

/** Formats minor units with exactly the currency's minor-unit digits: `1250n` in EUR is `"12.50"`. */
export const format = (money: Money): string => {
  const digits = minorUnits(money.currency)
  const negative = money.minor < 0n
  const text = (negative ? -money.minor : money.minor).toString().padStart(digits + 1, "0")
  const whole = text.slice(0, text.length - digits)
  const sign = negative ? "-" : ""
  return digits === 0 ? `${sign}${whole}` : `${sign}${whole}.${text.slice(text.length - digits)}`
}

/** A money value of minor units. */
export const make = (minor: bigint, currency: CurrencyCode): Money => ({ currency, minor })
