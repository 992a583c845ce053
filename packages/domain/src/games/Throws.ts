import type { Draws } from "./Draws.ts"

/**
 * What each built-in game draws for a round, whatever was picked: the part of
 * an engine's `play` that reads the round's {@link Draws}. Free of `effect`
 * (types only), so the player's page bundles this very module to recompute a
 * round in the browser with the code the server plays.
 */

/** The six colours, in the order `int(6)` picks them: 0 is red, 5 is pink. */
export const colours = ["red", "green", "blue", "yellow", "white", "pink"] as const
export type Colour = typeof colours[number]

/** Odd Even and Single: a number from 1 to 36 (`int(36) + 1`). */
export const number36 = (draws: Draws): { readonly number: number } => ({ number: draws.int(36) + 1 })

/** Under Over: two dice (`int(6) + 1` each, in order). */
export const twoDice = (draws: Draws): { readonly dice: readonly [number, number] } => {
  const a = draws.int(6) + 1
  return { dice: [a, draws.int(6) + 1] }
}

/** Color Game: three dice of one colour per face (`int(6)` each, in order). */
export const colourDice = (draws: Draws): { readonly dice: readonly [Colour, Colour, Colour] } => {
  const colour = (index: number): Colour => colours[index] ?? "red"
  const a = colour(draws.int(6))
  const b = colour(draws.int(6))
  return { dice: [a, b, colour(draws.int(6))] }
}

/** A number draw: `drawn` distinct numbers of 1…`total` in draw order (`sample(drawn, total)` plus 1). */
export const numbersDrawn = (drawn: number, total: number) => (draws: Draws): { readonly drawn: ReadonlyArray<number> } => ({
  drawn: draws.sample(drawn, total).map((n) => n + 1)
})

/**
 * How a game draws, as data: the page is sent it with the game's controls and
 * recomputes the round with {@link throwOf}, the code the engine plays.
 */
export type DrawSpec =
  | { readonly throw: "number36" }
  | { readonly throw: "twoDice" }
  | { readonly throw: "colourDice" }
  | { readonly throw: "numbers"; readonly drawn: number; readonly total: number }

/** The draw a {@link DrawSpec} names: the fields of a round's outcome that come from its draws alone. */
export const throwOf = (spec: DrawSpec): (draws: Draws) => Readonly<Record<string, unknown>> => {
  switch (spec.throw) {
    case "number36":
      return number36
    case "twoDice":
      return twoDice
    case "colourDice":
      return colourDice
    case "numbers":
      return numbersDrawn(spec.drawn, spec.total)
  }
}
