import type { EngineRules } from "./GameRules.ts"
import type { DrawSpec } from "./Throws.ts"

/** How the page shows a round: one big ball, two dice, three colour cubes, or `draw` balls revealed every `ms`. */
export type StageSpec = "ball" | "dice" | "cubes" | { readonly draw: number; readonly size: "" | "sm"; readonly ms: number }

/**
 * The page's controls of a game, as data (the page builds them, `packages/play/src/games`):
 * a row of `choices` (the selection each sends and its colour class, the first picked to begin
 * with), or a grid of the numbers 1…`total` in `cols` columns of which 1…`most` are picked.
 * `hint` is a message key of the page's catalogues.
 */
export type ControlsSpec =
  | {
    readonly kind: "choices"
    readonly choices: ReadonlyArray<readonly [selection: string, cls: string]>
    readonly hint: string
    readonly stage: StageSpec
  }
  | { readonly kind: "numbers"; readonly total: number; readonly most: number; readonly cols: number; readonly stage: StageSpec }

/** A game's artwork (`/static/games/<id>.svg`): a gradient from `from` to `to` under SVG `body` (320×200). */
export interface GameArt {
  readonly from: string
  readonly to: string
  readonly body: string
}

/**
 * Everything about one built-in game, in one module: the catalogue entry
 * (id, name, category), the merchant setting of its house edge, its engine
 * (rules, selection schema, pay table), its draw and controls for the page
 * and its artwork. The catalogue seed, the settings fields, the RTP table,
 * the images, the page's controls and its verifier derive from the list of
 * definitions (`Definitions.ts`).
 */
export interface GameDefinition<Id extends string = string, Field extends string = string> {
  readonly id: Id
  readonly name: string
  /** The catalogue's category: 1 number games, 2 colour games, 3 draw (lottery) games. */
  readonly category: number
  /** The merchant setting holding the game's house edge in percent, e.g. `oddEvenGameProfit`. */
  readonly profitField: Field
  /** The engine: its decoder comes from `rules.selection` (see `Games`). */
  readonly rules: EngineRules
  readonly draw: DrawSpec
  readonly controls: ControlsSpec
  readonly art: GameArt
}

/** A definition, its id and profit field kept as literal types. */
export const defineGame = <const Id extends string, const Field extends `${string}GameProfit` | `${string}Profit`>(
  definition: GameDefinition<Id, Field>
): GameDefinition<Id, Field> => definition
