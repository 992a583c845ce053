import { ball } from "../Art.ts"
import { defineGame } from "../GameDefinition.ts"
import * as NumberDraw from "./NumberDraw.ts"

/**
 * Lotto: 6 of 49. Base weights by picks and hits (index = hits); each row is
 * scaled to the RTP on its own, so every count of picks returns the same.
 */
export const weights: ReadonlyArray<ReadonlyArray<number>> = [
  [0, 1],
  [0, 1, 10],
  [0, 1, 6, 60],
  [0, 2, 6, 50, 500],
  [0, 2, 5, 20, 200, 2000],
  [0, 2, 3, 12, 80, 800, 8000]
]

/** Lotto: 6 numbers are drawn from 1 to 49; a player picks 1 to 6 of them. */
export const rules = NumberDraw.make({
  id: "lotto",
  name: "Lotto",
  description: "Six numbers are drawn from 1 to 49. Pick 1 to 6 numbers: the more of them are drawn, " +
    "the more you win. Every count of picks has its own pay table with the same return.",
  total: 49,
  drawn: 6,
  weights,
  examples: [[7], [3, 14, 25, 36, 41, 49], [49, 1, 22]]
})

/** Lotto: a draw game (category 3) with its house edge in `lottoGameProfit`. */
export const definition = defineGame({
  id: "lotto",
  name: "Lotto",
  category: 3,
  profitField: "lottoGameProfit",
  rules,
  draw: { throw: "numbers", drawn: 6, total: 49 },
  controls: { kind: "numbers", total: 49, most: 6, cols: 7, stage: { draw: 6, size: "", ms: 320 } },
  art: {
    from: "#78350f",
    to: "#eab308",
    body: [7, 12, 23, 31, 38, 45].map((n, i) => ball(50 + i * 44, 72 + (i % 2 ? -12 : 12), 20, n, "#fde68a")).join("")
  }
})
