import { Schema } from "effect"
import * as Money from "../Money.ts"
import { defaultProfit, maxProfit, minProfit } from "./RtpRange.ts"

export * from "./RtpRange.ts"

/**
 * A game's house edge as stored and answered: any percentage from 0 to 100 (a value
 * stored before {@link GameProfit} bounded changes still reads back; it plays clamped).
 */
export const StoredProfit = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 100 }))

/**
 * A game's house edge as a merchant may set it: a number of percent from
 * {@link minProfit} to {@link maxProfit}. More than 2 fraction digits are
 * rounded half up when played (see {@link profitBp}).
 */
export const GameProfit = Schema.Finite.check(
  Schema.isBetween({ minimum: minProfit, maximum: maxProfit }, {
    message: `must be a house edge in percent from ${minProfit} to ${maxProfit} (RTP ${100 - maxProfit} % to ${100 - minProfit} %)`
  })
).annotate({ description: `The game's house edge in percent, ${minProfit} to ${maxProfit} (default ${defaultProfit})` })

/**
 * A house edge in percent as basis points (hundredths of a percent):
 * clamped to [{@link minProfit}, {@link maxProfit}], then rounded half up
 * to 2 decimals on its exact decimal text (`2.345` → 235). Not a finite
 * number: {@link defaultProfit}.
 */
export const profitBp = (profit: number): number => {
  if (!Number.isFinite(profit)) return defaultProfit * 100
  const clamped = Math.min(maxProfit, Math.max(minProfit, profit))
  const [whole = "0", fraction = ""] = Money.decimalText(clamped).split(".")
  const digits = fraction.padEnd(3, "0")
  return Number(whole) * 100 + Number(digits.slice(0, 2)) + (digits[2] !== undefined && digits[2] >= "5" ? 1 : 0)
}
