import { definitions } from "./Definitions.ts"

/** A merchant setting holding a game's house edge in percent. */
export type ProfitField = typeof definitions[number]["profitField"]

/**
 * The merchant setting holding each built-in game's house edge, by game id, from the definitions. Free of
 * `effect`, with the range in `RtpRange.ts`, for a browser page that shows or edits the RTPs.
 */
export const profitFields: Readonly<Record<string, ProfitField>> = Object.fromEntries(
  definitions.map((definition) => [definition.id, definition.profitField])
)
