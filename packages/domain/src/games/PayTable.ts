import { clampRtpBp } from "./RtpRange.ts"

/**
 * Multipliers are integers of ten-thousandths of the stake (19500n is
 * 1.9500×, stake included), published with 4 fraction digits.
 */
export const multiplierScale = 10_000n

/**
 * The largest multiplier, 9000×: a payout of the largest stake (10^15 − 1
 * minor units) stays below 2^63 − 1, the largest PostgreSQL `bigint`.
 */
export const maxMultiplier = 9_000n * multiplierScale

/** A way to win of one selection variant: how many of its equally likely outcomes pay it, and how much, relatively. */
export interface Line {
  /** What the player sees, e.g. "2 of 3 dice show your colour". */
  readonly condition: string
  /** How many of the variant's equally likely outcomes pay this line. */
  readonly ways: bigint
  /** The line's share in the base table's shape; only ratios between a variant's lines matter. */
  readonly weight: bigint
  readonly selection?: string
  readonly picks?: number
  readonly hits?: number
}

/** One row of a game's pay table: a selection, or a count of numbers picked, with its ways to win. */
export interface Variant {
  /** A name for the row, e.g. `"odd"` or `"4 picks"`. */
  readonly variant: string
  /** The number of equally likely outcomes of a round for this selection. */
  readonly outcomes: bigint
  readonly lines: ReadonlyArray<Line>
}

/** A published line of a pay table: the multiplier with 4 fraction digits, e.g. `"1.9500"`. */
export interface PayoutLine {
  readonly condition: string
  readonly multiplier: string
  readonly selection?: string
  readonly picks?: number
  readonly hits?: number
}

/** An exact expected multiplier of one selection variant: `numerator / denominator`. */
export interface ExpectedMultiplier {
  readonly variant: string
  readonly numerator: bigint
  readonly denominator: bigint
}

const computed = new WeakMap<Variant, Map<number, ReadonlyArray<bigint>>>()

/**
 * The variant's multipliers (ten-thousandths, one per line) at an RTP in
 * basis points, clamped to the supported range: the base weights scaled so
 * the expected multiplier is the RTP, each rounded down, at most
 * {@link maxMultiplier}. Rounding down loses less than the chance of a win
 * (< 1 ten-thousandth) of expected return, so the expected multiplier is
 * in (RTP − 0.0001, RTP]. The base tables keep every multiplier of the RTP
 * range below the cap, so the cap never costs return. Memoised per RTP.
 */
export const multipliers = (variant: Variant, rtpBp: number): ReadonlyArray<bigint> => {
  const bp = clampRtpBp(rtpBp)
  let byRtp = computed.get(variant)
  if (byRtp === undefined) {
    byRtp = new Map()
    computed.set(variant, byRtp)
  }
  const known = byRtp.get(bp)
  if (known !== undefined) return known
  const base = variant.lines.reduce((sum, line) => sum + line.ways * line.weight, 0n)
  const scaled = variant.lines.map((line) => {
    const m = (line.weight * BigInt(bp) * variant.outcomes) / base
    return m < maxMultiplier ? m : maxMultiplier
  })
  byRtp.set(bp, scaled)
  return scaled
}

/** The variant's exact expected multiplier at an RTP in basis points, from its published multipliers. */
export const expected = (variant: Variant, rtpBp: number): ExpectedMultiplier => {
  const table = multipliers(variant, rtpBp)
  const numerator = variant.lines.reduce((sum, line, i) => sum + line.ways * (table[i] ?? 0n), 0n)
  return { variant: variant.variant, numerator, denominator: variant.outcomes * multiplierScale }
}

/** A multiplier of ten-thousandths as a decimal with 4 fraction digits: 19500n → `"1.9500"`. */
export const formatMultiplier = (multiplier: bigint): string =>
  `${multiplier / multiplierScale}.${(multiplier % multiplierScale).toString().padStart(4, "0")}`

/** The variant's lines as published at an RTP in basis points. */
export const published = (variant: Variant, rtpBp: number): ReadonlyArray<PayoutLine> => {
  const table = multipliers(variant, rtpBp)
  return variant.lines.map(({ condition, hits, picks, selection }, i) => ({
    condition,
    multiplier: formatMultiplier(table[i] ?? 0n),
    ...(selection === undefined ? {} : { selection }),
    ...(picks === undefined ? {} : { picks }),
    ...(hits === undefined ? {} : { hits })
  }))
}

/** The payout of a stake (minor units) at a multiplier of ten-thousandths, rounded down to minor units. */
export const payout = (stake: bigint, multiplier: bigint): bigint => (stake * multiplier) / multiplierScale

/** The payout of a stake on line `line` of a variant (none: 0). */
export const payoutOf = (variant: Variant, line: number | undefined, stake: bigint, rtpBp: number): bigint => {
  const multiplier = line === undefined ? undefined : multipliers(variant, rtpBp)[line]
  return multiplier === undefined ? 0n : payout(stake, multiplier)
}

/** The binomial coefficient C(n, k). */
export const choose = (n: number, k: number): bigint => {
  if (k < 0 || k > n) return 0n
  let result = 1n
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1)
  return result
}

/**
 * The variant of a draw of `drawn` numbers out of `total` for a player who
 * picked `picks` of them: C(total, picks) equally likely pick sets, of which
 * C(drawn, h) × C(total − drawn, picks − h) hit exactly h numbers
 * (hypergeometric). `weights[h]` is the base weight of h hits (0: no line).
 */
export const numbersVariant = (
  total: number,
  drawn: number,
  picks: number,
  weights: ReadonlyArray<number>
): Variant => ({
  variant: `${picks} ${picks === 1 ? "pick" : "picks"}`,
  outcomes: choose(total, picks),
  lines: weights.flatMap((weight, hits) =>
    weight === 0 ? [] : [{
      condition: picks === 1
        ? "your number is drawn"
        : hits === 0
        ? `none of your ${picks} numbers is drawn`
        : `${hits} of your ${picks} numbers ${hits === 1 ? "is" : "are"} drawn`,
      ways: choose(drawn, hits) * choose(total - drawn, picks - hits),
      weight: BigInt(weight),
      picks,
      hits
    }]
  )
})
