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

/**
 * At most 18 integer digits. That bounds the text, not what may be stored:
 * such an amount can exceed a PostgreSQL `bigint` of minor units; stakes and
 * stake limits are bounded by {@link maxStakeMinor}.
 */
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

/**
 * An operator's balance plus `minor` units of `currency`, exactly: the
 * balance is a decimal string as wallets answer it (`DecimalString`: maybe
 * negative — an operator's credit line — maybe with more fraction digits
 * than the currency has, which are kept), the result has at least the
 * currency's digits. Undefined for text that is not such a decimal.
 */
export const addToBalance = (balance: string, minor: bigint, currency: CurrencyCode): string | undefined => {
  const match = /^(-?)([0-9]{1,18})(?:\.([0-9]{1,8}))?$/.exec(balance)
  if (match === null) return undefined
  const digits = minorUnits(currency)
  const fraction = match[3] ?? ""
  const scale = Math.max(digits, fraction.length)
  const magnitude = BigInt(`${match[2]}${fraction.padEnd(scale, "0")}`)
  const total = (match[1] === "-" ? -magnitude : magnitude) + minor * 10n ** BigInt(scale - digits)
  const text = (total < 0n ? -total : total).toString().padStart(scale + 1, "0")
  const whole = text.slice(0, text.length - scale)
  return `${total < 0n ? "-" : ""}${whole}${scale === 0 ? "" : `.${text.slice(text.length - scale)}`}`
}

/** A money value of minor units. */
export const make = (minor: bigint, currency: CurrencyCode): Money => ({ currency, minor })

/**
 * The largest stake the gateway takes, and the largest stake limit a merchant
 * may set: 10^15 − 1 minor units, whatever the currency — 9999999999999.99 in
 * a two-digit currency, 999999999999999 in JPY, 99999999999.9999 in UYW.
 * Larger stakes are refused where they come in (400 naming the field), never
 * passed on. The bound keeps every amount derived from a stake far inside the
 * PostgreSQL `bigint` of the `…_minor` columns (2^63 − 1 ≈ 9.2 × 10^18): a
 * payout of up to 9000× the stake fits, and odd-even's 1.95× is below
 * 2^53, so even a JavaScript number holds it exactly. In major units such an
 * amount has at most 15 significant digits, so it survives a JSON number
 * (an IEEE double) unchanged.
 */
export const maxStakeMinor = 999_999_999_999_999n

/**
 * The exact decimal text of a finite number, never in exponent notation:
 * the shortest text that reads back as the same double (`0.1` → `"0.1"`,
 * `1e-7` → `"0.0000001"`, `1e21` → `"1000000000000000000000"`). A decimal
 * of at most 15 significant digits, read as a JSON number, comes back as
 * the same digits (trailing fraction zeros dropped).
 */
export const decimalText = (value: number): string => {
  const text = String(value)
  const match = /^(-?)([0-9])(?:\.([0-9]+))?e([+-][0-9]+)$/.exec(text)
  if (match === null) return text
  const [, sign = "", lead = "", rest = "", exponent = "0"] = match
  const digits = lead + rest
  const point = 1 + Number(exponent)
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/**
 * A JSON number as an amount of the currency, exactly: {@link parse} of its
 * {@link decimalText}. More fraction digits than the currency has are
 * refused, never rounded.
 */
export const fromNumber = (value: number, currency: CurrencyCode): Result.Result<Money, InvalidAmount> =>
  parse(decimalText(value), currency)
