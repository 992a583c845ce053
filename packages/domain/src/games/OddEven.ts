/** The selections of `odd-even`. */
export const selections = ["odd", "even"] as const

/** The numbers drawn: 1 to 36, uniformly; half are odd, half even. */
export const lowest = 1
export const highest = 36

/**
 * What a win returns, in hundredths of the stake: 1.95× (stake included),
 * rounded down to minor units. A win has probability 1/2, so the return to
 * player is 97.5 % and the house edge 2.5 %.
 */
export const payoutPercent = 195n

/** The payout of a stake when `drawn` is drawn and `selection` was chosen: 0 for a loss. */
export const payout = (selection: string, drawn: number, stake: bigint): bigint =>
  (drawn % 2 === 1 ? "odd" : "even") === selection ? (stake * payoutPercent) / 100n : 0n

/** The outcome shown to the player: the number and its parity, e.g. `"17 odd"`. */
export const outcome = (drawn: number): string => `${drawn} ${drawn % 2 === 1 ? "odd" : "even"}`
