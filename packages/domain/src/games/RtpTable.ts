/**
 * The RTP rules that need no Schema (the back-office pages import them):
 * each game's setting, and the house edge's bounds and default.
 */
import type { BuiltinGameId } from "../BuiltinGames.ts"
import type { SettingsField } from "../MerchantSettings.ts"

/** The merchant setting holding each built-in game's house edge, in percent. */
export const profitFields = {
  "odd-even": "oddEvenGameProfit",
  "under-over": "underOverGameProfit",
  "color-game": "colorGameProfit",
  "lotto": "lottoGameProfit",
  "mega-ten": "megaTenGameProfit",
  "single": "singleGameProfit"
} as const satisfies Record<BuiltinGameId, SettingsField>

/** A setting holding a game's house edge. */
export type ProfitField = typeof profitFields[BuiltinGameId]

/** The smallest house edge a game plays with, in percent: RTP at most 99.00 %. */
export const minProfit = 1

/** The largest house edge a game plays with, in percent: RTP at least 85.00 %. */
export const maxProfit = 15

/** The house edge of a game whose setting is unset, in percent: RTP 97.50 % (odd-even pays 1.95×). */
export const defaultProfit = 2.5
