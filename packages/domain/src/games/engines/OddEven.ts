import { ball } from "../Art.ts"
import { defineGame } from "../GameDefinition.ts"
import { dialect, type EngineRules } from "../GameRules.ts"
import * as PayTable from "../PayTable.ts"
import { number36 } from "../Throws.ts"

/** The selections of odd-even. */
export const selections = ["odd", "even"] as const

/** A parity to bet on. */
export type Selection = typeof selections[number]

/** A round: the number drawn (1…36) and its parity. */
export type Outcome = { readonly number: number; readonly parity: Selection; readonly summary: string }

const variants = selections.map((parity): PayTable.Variant => ({
  variant: parity,
  outcomes: 36n,
  lines: [{ condition: `the number drawn is ${parity}`, ways: 18n, weight: 1n, selection: parity }]
}))

const examples = ["odd", "even"]

/**
 * Odd Even: a number from 1 to 36 is drawn (`int(36) + 1`); the parity bet
 * on wins 2 × RTP (1.95× at 97.50 %).
 */
export const rules: EngineRules<Selection, Outcome> = {
  id: "odd-even",
  name: "Odd Even",
  description: "A number from 1 to 36 is drawn. Bet on whether it is odd or even: " +
    "half of the numbers are odd, half even, and a right call pays almost twice your stake.",
  selectionSchema: {
    $schema: dialect,
    title: "Odd Even selection",
    description: "The parity you bet on",
    type: "string",
    enum: [...selections],
    examples
  },
  examples,
  selection: { kind: "oneOf", values: selections, expectation: "must be \"odd\" or \"even\"" },
  play: (selection, stake, draws, rtpBp) => {
    const { number } = number36(draws)
    const parity = number % 2 === 1 ? "odd" : "even"
    const variant = variants[selections.indexOf(selection)]
    return {
      outcome: { number, parity, summary: `${number} ${parity}` },
      payout: variant === undefined || parity !== selection ? 0n : PayTable.payoutOf(variant, 0, stake, rtpBp)
    }
  },
  payouts: (rtpBp) => variants.flatMap((variant) => PayTable.published(variant, rtpBp)),
  expectedMultiplier: (rtpBp) => variants.map((variant) => PayTable.expected(variant, rtpBp))
}

/** Odd Even: a number game (category 1) with its house edge in `oddEvenGameProfit`. */
export const definition = defineGame({
  id: "odd-even",
  name: "Odd Even",
  category: 1,
  profitField: "oddEvenGameProfit",
  rules,
  draw: { throw: "number36" },
  controls: { kind: "choices", choices: [["odd", "v-odd"], ["even", "v-even"]], hint: "oddEvenHint", stage: "ball" },
  art: {
    from: "#312e81",
    to: "#7c3aed",
    body: ball(112, 78, 40, 17, "#a78bfa") + ball(212, 78, 40, 24, "#22d3ee") +
      `<text x="112" y="28" font-size="13" text-anchor="middle" font-weight="700" fill="#ede9fe">ODD</text>` +
      `<text x="212" y="28" font-size="13" text-anchor="middle" font-weight="700" fill="#cffafe">EVEN</text>`
  }
})
