import { Schema } from "effect"
import type { SettingsValues } from "../MerchantSettings.ts"
import * as Money from "../Money.ts"

export { defaultProfit, maxProfit, minProfit, type ProfitField, profitFields } from "./RtpTable.ts"
import { defaultProfit, maxProfit, minProfit, type ProfitField, profitFields } from "./RtpTable.ts"

/** The lowest RTP in basis points (85.00 %). */
export const minRtpBp = 10_000 - maxProfit * 100

/** The highest RTP in basis points (99.00 %). */
export const maxRtpBp = 10_000 - minProfit * 100

/** The RTP in basis points of an unset setting (97.50 %). */
export const defaultRtpBp = 10_000 - defaultProfit * 100

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

/** An RTP in basis points brought into [{@link minRtpBp}, {@link maxRtpBp}] (a non-integer rounds down). */
export const clampRtpBp = (rtpBp: number): number =>
  Number.isNaN(rtpBp) ? defaultRtpBp : Math.min(maxRtpBp, Math.max(minRtpBp, Math.floor(rtpBp)))

const fieldOf: ReadonlyMap<string, ProfitField> = new Map(Object.entries(profitFields))

/**
 * The RTP a merchant's game plays at, in basis points: 10000 − the house
 * edge of its `<game>GameProfit` setting ({@link profitBp}: default 2.5,
 * clamped to 1…15, rounded to 2 decimals). An unknown game or missing
 * settings play at the default.
 */
export const rtpFor = (gameId: string, settings: Pick<SettingsValues, ProfitField> | undefined): number => {
  const field = fieldOf.get(gameId)
  const profit = field === undefined ? undefined : settings?.[field]
  return 10_000 - profitBp(profit ?? defaultProfit)
}

/** An RTP in basis points as a percentage with 2 decimals: 9750 → `"97.50"`. */
export const formatRtp = (bp: number): string =>
  `${Math.trunc(bp / 100)}.${String(Math.abs(bp % 100)).padStart(2, "0")}`
