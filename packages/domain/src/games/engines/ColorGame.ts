import { cube } from "../Art.ts"
import { defineGame } from "../GameDefinition.ts"
import { dialect, type EngineRules } from "../GameRules.ts"
import * as PayTable from "../PayTable.ts"
import { colourDice, colours } from "../Throws.ts"

/** The six colours, in the order `int(6)` picks them: 0 is red, 5 is pink. */
export { colours }

/** A colour to bet on. */
export type Selection = typeof colours[number]

/** A round: the colours the three dice show, and how many match the bet. */
export type Outcome = {
  readonly dice: readonly [Selection, Selection, Selection]
  readonly matches: number
  readonly summary: string
}

/**
 * Of the 216 equally likely throws of three dice, 75 show the colour once,
 * 15 twice and 1 three times; the base table pays them 2 : 3 : 10.
 */
const variant: PayTable.Variant = {
  variant: "any colour",
  outcomes: 216n,
  lines: [
    { condition: "1 of 3 dice shows your colour", ways: 75n, weight: 2n, hits: 1 },
    { condition: "2 of 3 dice show your colour", ways: 15n, weight: 3n, hits: 2 },
    { condition: "all 3 dice show your colour", ways: 1n, weight: 10n, hits: 3 }
  ]
}

const examples = ["red", "pink"]

/**
 * Color Game: three dice with one colour per face are thrown (`int(6)` each,
 * in order); a bet pays by how many dice show its colour.
 */
export const rules: EngineRules<Selection, Outcome> = {
  id: "color-game",
  name: "Color Game",
  description: "Three dice are thrown, each with six coloured faces: red, green, blue, yellow, white and pink. " +
    "Pick a colour: you win when at least one die shows it, and two or three matching dice pay more.",
  selectionSchema: {
    $schema: dialect,
    title: "Color Game selection",
    description: "The colour you bet on",
    type: "string",
    enum: [...colours],
    examples
  },
  examples,
  selection: { kind: "oneOf", values: colours, expectation: `must be one of ${colours.map((c) => `"${c}"`).join(", ")}` },
  play: (selection, stake, draws, rtpBp) => {
    const { dice } = colourDice(draws)
    const matches = dice.filter((c) => c === selection).length
    return {
      outcome: { dice, matches, summary: `${dice.join(" ")}, ${matches} ${matches === 1 ? "match" : "matches"}` },
      payout: matches === 0 ? 0n : PayTable.payoutOf(variant, matches - 1, stake, rtpBp)
    }
  },
  payouts: (rtpBp) => PayTable.published(variant, rtpBp),
  expectedMultiplier: (rtpBp) => [PayTable.expected(variant, rtpBp)]
}

/** Color Game: a colour game (category 2) with its house edge in `colorGameProfit`. */
export const definition = defineGame({
  id: "color-game",
  name: "Color Game",
  category: 2,
  profitField: "colorGameProfit",
  rules,
  draw: { throw: "colourDice" },
  controls: { kind: "choices", choices: colours.map((c) => [c, `c-${c}`] as const), hint: "colorHint", stage: "cubes" },
  art: {
    from: "#7f1d1d",
    to: "#f59e0b",
    body: cube(58, 40, 66, "#fca5a5", "#b91c1c", "#dc2626") + cube(128, 26, 66, "#86efac", "#15803d", "#16a34a") +
      cube(198, 40, 66, "#93c5fd", "#1d4ed8", "#2563eb")
  }
})
