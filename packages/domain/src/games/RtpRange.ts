/**
 * The range of a game's house edge and RTP, as plain numbers: no `effect`, so
 * the pay tables, the game definitions and the pages that show them share it.
 */

/** The smallest house edge a game plays with, in percent: RTP at most 99.00 %. */
export const minProfit = 1

/** The largest house edge a game plays with, in percent: RTP at least 85.00 %. */
export const maxProfit = 15

/** The house edge of a game whose setting is unset, in percent: RTP 97.50 % (odd-even pays 1.95×). */
export const defaultProfit = 2.5

/** The lowest RTP in basis points (85.00 %). */
export const minRtpBp = 10_000 - maxProfit * 100

/** The highest RTP in basis points (99.00 %). */
export const maxRtpBp = 10_000 - minProfit * 100

/** The RTP in basis points of an unset setting (97.50 %). */
export const defaultRtpBp = 10_000 - defaultProfit * 100

/** An RTP in basis points brought into [{@link minRtpBp}, {@link maxRtpBp}] (a non-integer rounds down). */
export const clampRtpBp = (rtpBp: number): number =>
  Number.isNaN(rtpBp) ? defaultRtpBp : Math.min(maxRtpBp, Math.max(minRtpBp, Math.floor(rtpBp)))

/** An RTP in basis points as a percentage with 2 decimals: 9750 → `"97.50"`. */
export const formatRtp = (bp: number): string =>
  `${Math.trunc(bp / 100)}.${String(Math.abs(bp % 100)).padStart(2, "0")}`
