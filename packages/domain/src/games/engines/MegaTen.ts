import { ball, grid } from "../Art.ts"
import { defineGame } from "../GameDefinition.ts"
import * as NumberDraw from "./NumberDraw.ts"

/**
 * Mega Ten (keno): 20 of 80. Base weights by picks and hits (index = hits),
 * rising steeply with hits; ten picks also pay for none drawn. Each row is
 * scaled to the RTP on its own, so every count of picks returns the same.
 */
export const weights: ReadonlyArray<ReadonlyArray<number>> = [
  [0, 1],
  [0, 1, 6],
  [0, 0, 3, 25],
  [0, 0, 3, 16, 100],
  [0, 0, 1, 3, 15, 100],
  [0, 0, 0, 5, 16, 80, 400],
  [0, 0, 0, 3, 10, 40, 200, 1000],
  [0, 0, 0, 0, 4, 15, 60, 300, 1000],
  [0, 0, 0, 0, 5, 20, 70, 240, 1000, 5000],
  [3, 0, 0, 0, 2, 5, 20, 80, 250, 1000, 5000]
]

/** Mega Ten: 20 numbers are drawn from 1 to 80; a player picks 1 to 10 of them. */
export const rules = NumberDraw.make({
  id: "mega-ten",
  name: "Mega Ten",
  description: "Twenty numbers are drawn from 1 to 80. Pick 1 to 10 numbers: the more of them are drawn, " +
    "the more you win, steeply so for many picks; with ten picks, none drawn also pays. " +
    "Every count of picks has its own pay table with the same return.",
  total: 80,
  drawn: 20,
  weights,
  examples: [[42], [1, 12, 23, 34, 45, 56, 67, 78, 5, 80], [80, 7, 33]]
})

/** Mega Ten: a draw game (category 3) with its house edge in `megaTenGameProfit`. */
export const definition = defineGame({
  id: "mega-ten",
  name: "Mega Ten",
  category: 3,
  profitField: "megaTenGameProfit",
  rules,
  draw: { throw: "numbers", drawn: 20, total: 80 },
  controls: { kind: "numbers", total: 80, most: 10, cols: 10, stage: { draw: 20, size: "sm", ms: 110 } },
  art: { from: "#4a044e", to: "#db2777", body: grid([2, 9, 13, 20, 27, 30, 36]) + ball(96, 78, 46, 10, "#f9a8d4") }
})
