import { die } from "../Art.ts"
import { defineGame } from "../GameDefinition.ts"
import { dialect, type EngineRules } from "../GameRules.ts"
import * as PayTable from "../PayTable.ts"
import { twoDice } from "../Throws.ts"

/** The selections of under-over: the total of two dice under 7, exactly 7, or over 7. */
export const selections = ["under", "seven", "over"] as const

/** A range of totals to bet on. */
export type Selection = typeof selections[number]

/** A round: the two dice (1…6 each), their total and where it falls. */
export type Outcome = {
  readonly dice: readonly [number, number]
  readonly total: number
  readonly result: Selection
  readonly summary: string
}

/** Of the 36 equally likely throws, 15 total 2–6, 6 total 7 and 15 total 8–12. */
const variants: ReadonlyArray<PayTable.Variant> = [
  { variant: "under", outcomes: 36n, lines: [{ condition: "the dice total 2 to 6", ways: 15n, weight: 1n, selection: "under" }] },
  { variant: "seven", outcomes: 36n, lines: [{ condition: "the dice total 7", ways: 6n, weight: 1n, selection: "seven" }] },
  { variant: "over", outcomes: 36n, lines: [{ condition: "the dice total 8 to 12", ways: 15n, weight: 1n, selection: "over" }] }
]

const resultOf = (total: number): Selection => total < 7 ? "under" : total === 7 ? "seven" : "over"

const examples = ["under", "seven", "over"]

/**
 * Under Over: two dice are thrown (`int(6) + 1` each, in order); under and
 * over win 36/15 × RTP (2.34× at 97.50 %), seven 6 × RTP (5.85×).
 */
export const rules: EngineRules<Selection, Outcome> = {
  id: "under-over",
  name: "Under Over",
  description: "Two dice are thrown. Bet on their total: under 7 (2 to 6), exactly 7, or over 7 (8 to 12). " +
    "Seven comes up least often, so it pays the most.",
  selectionSchema: {
    $schema: dialect,
    title: "Under Over selection",
    description: "Where the total of two dice falls: under 7, seven, or over 7",
    type: "string",
    enum: [...selections],
    examples
  },
  examples,
  selection: { kind: "oneOf", values: selections, expectation: "must be \"under\", \"seven\" or \"over\"" },
  play: (selection, stake, draws, rtpBp) => {
    const [a, b] = twoDice(draws).dice
    const total = a + b
    const result = resultOf(total)
    const variant = variants[selections.indexOf(selection)]
    return {
      outcome: { dice: [a, b], total, result, summary: `${a} + ${b} = ${total} ${result}` },
      payout: variant === undefined || result !== selection ? 0n : PayTable.payoutOf(variant, 0, stake, rtpBp)
    }
  },
  payouts: (rtpBp) => variants.flatMap((variant) => PayTable.published(variant, rtpBp)),
  expectedMultiplier: (rtpBp) => variants.map((variant) => PayTable.expected(variant, rtpBp))
}

/** Under Over: a number game (category 1) with its house edge in `underOverGameProfit`. */
export const definition = defineGame({
  id: "under-over",
  name: "Under Over",
  category: 1,
  profitField: "underOverGameProfit",
  rules,
  draw: { throw: "twoDice" },
  controls: { kind: "choices", choices: [["under", ""], ["seven", ""], ["over", ""]], hint: "underOverHint", stage: "dice" },
  art: {
    from: "#064e3b",
    to: "#0ea5e9",
    body: die(82, 36, 72, -12, [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]]) +
      die(170, 40, 72, 10, [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]) +
      `<text x="290" y="60" font-size="22" text-anchor="end" font-weight="800" fill="#ecfeff">7</text>`
  }
})
