import { ball } from "../Art.ts"
import { defineGame } from "../GameDefinition.ts"
import { dialect, type EngineRules } from "../GameRules.ts"
import * as PayTable from "../PayTable.ts"
import { number36 } from "../Throws.ts"

/** A number from 1 to 36 to bet on. */
export type Selection = number

/** A round: the number drawn (1…36). */
export type Outcome = { readonly number: number; readonly summary: string }

const variant: PayTable.Variant = {
  variant: "any number",
  outcomes: 36n,
  lines: [{ condition: "the number drawn is your number", ways: 1n, weight: 1n }]
}

const examples = [17, 1, 36]

/** Single: a number from 1 to 36 is drawn (`int(36) + 1`); the right number wins 36 × RTP (35.1× at 97.50 %). */
export const rules: EngineRules<Selection, Outcome> = {
  id: "single",
  name: "Single",
  description: "A number from 1 to 36 is drawn. Pick one number: if it is drawn, you win about 35 times your stake.",
  selectionSchema: {
    $schema: dialect,
    title: "Single selection",
    description: "The number you bet on, 1 to 36",
    type: "integer",
    minimum: 1,
    maximum: 36,
    examples
  },
  examples,
  selection: { kind: "integer", minimum: 1, maximum: 36, expectation: "must be a whole number from 1 to 36" },
  play: (selection, stake, draws, rtpBp) => {
    const { number } = number36(draws)
    return {
      outcome: { number, summary: `${number} drawn` },
      payout: number === selection ? PayTable.payoutOf(variant, 0, stake, rtpBp) : 0n
    }
  },
  payouts: (rtpBp) => PayTable.published(variant, rtpBp),
  expectedMultiplier: (rtpBp) => [PayTable.expected(variant, rtpBp)]
}

/** Single: a number game (category 1) with its house edge in `singleGameProfit`. */
export const definition = defineGame({
  id: "single",
  name: "Single",
  category: 1,
  profitField: "singleGameProfit",
  rules,
  draw: { throw: "number36" },
  controls: { kind: "numbers", total: 36, most: 1, cols: 9, stage: "ball" },
  art: {
    from: "#0f172a",
    to: "#475569",
    body: `<circle cx="160" cy="76" r="58" fill="none" stroke="#fbbf24" stroke-width="10" stroke-dasharray="12 6"/>` +
      `<circle cx="160" cy="76" r="46" fill="#15803d"/>` + ball(160, 76, 30, 36, "#fbbf24")
  }
})
