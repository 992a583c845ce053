import { dialect, type EngineRules } from "../GameRules.ts"
import * as PayTable from "../PayTable.ts"
import { numbersDrawn } from "../Throws.ts"

/** Numbers picked: distinct integers of the game's range, in any order. */
export type Selection = ReadonlyArray<number>

/** A round: the numbers drawn in draw order, and the picked ones among them, ascending. */
export type Outcome = {
  readonly drawn: ReadonlyArray<number>
  readonly hits: ReadonlyArray<number>
  readonly summary: string
}

/** A lottery-style game: `drawn` numbers of 1…`total` are drawn; players pick 1…`maxPicks` of them. */
export interface NumberDrawGame {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly total: number
  readonly drawn: number
  /** Base weights by picks (row 0 is 1 pick) and hits (index h is h hits); 0 pays nothing. */
  readonly weights: ReadonlyArray<ReadonlyArray<number>>
  readonly examples: ReadonlyArray<Selection>
}

const summaryOf = (hits: ReadonlyArray<number>, picks: number): string =>
  hits.length === 0 ? `0 of ${picks} hit` : `${hits.length} of ${picks} hit: ${hits.join(" ")}`

/**
 * The rules of a number-draw game: the drawn numbers are `sample(drawn,
 * total)` plus 1, and a selection of k numbers pays the line of k picks and
 * its hits. Each count of picks is its own pay-table row, scaled to the RTP.
 */
export const make = (game: NumberDrawGame): EngineRules<Selection, Outcome> => {
  const maxPicks = game.weights.length
  const drawOf = numbersDrawn(game.drawn, game.total)
  const variants = game.weights.map((row, i) => PayTable.numbersVariant(game.total, game.drawn, i + 1, row))
  const lineOf = variants.map((variant) => new Map(variant.lines.map((line, i) => [line.hits, i])))
  const expectation = `must be an array of 1 to ${maxPicks} distinct whole numbers from 1 to ${game.total}`
  return {
    id: game.id,
    name: game.name,
    description: game.description,
    selectionSchema: {
      $schema: dialect,
      title: `${game.name} selection`,
      description: `1 to ${maxPicks} distinct numbers from 1 to ${game.total}, in any order`,
      type: "array",
      items: { type: "integer", minimum: 1, maximum: game.total },
      minItems: 1,
      maxItems: maxPicks,
      uniqueItems: true,
      examples: game.examples
    },
    examples: game.examples,
    selection: { kind: "numbers", total: game.total, most: maxPicks, expectation },
    play: (selection, stake, draws, rtpBp) => {
      const { drawn } = drawOf(draws)
      const hits = selection.filter((n) => drawn.includes(n)).sort((a, b) => a - b)
      const row = selection.length - 1
      const variant = variants[row]
      return {
        outcome: { drawn, hits, summary: summaryOf(hits, selection.length) },
        payout: variant === undefined ? 0n : PayTable.payoutOf(variant, lineOf[row]?.get(hits.length), stake, rtpBp)
      }
    },
    payouts: (rtpBp) => variants.flatMap((variant) => PayTable.published(variant, rtpBp)),
    expectedMultiplier: (rtpBp) => variants.map((variant) => PayTable.expected(variant, rtpBp))
  }
}
