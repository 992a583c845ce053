import type { ControlsSpec, StageSpec } from "@gateway/domain/games/GameDefinition"
import { isKey } from "../i18n/index.ts"
import { ball, cubes, dice, draw, type Stage, text } from "../stages.ts"
import { S } from "../state.ts"
import { builtin } from "./builtin.ts"
import { choices } from "./choices.ts"
import { numbers } from "./numbers.ts"
import type { GameView } from "./view.ts"

export type { GameView } from "./view.ts"

const stageOf = (spec: StageSpec): Stage =>
  spec === "ball" ? ball : spec === "dice" ? dice : spec === "cubes" ? cubes : draw(spec.draw, spec.size, spec.ms)

/** A game's controls and stage from its definition's controls: a row of choices or a grid of numbers. */
const fromSpec = (spec: ControlsSpec): GameView =>
  spec.kind === "numbers"
    ? numbers(spec.total, spec.most, spec.cols, stageOf(spec.stage))
    : choices(
      spec.choices.map(([value, cls]) => [value, isKey(value) ? value : () => value, cls] as const),
      stageOf(spec.stage),
      isKey(spec.hint) ? spec.hint : "makePick"
    )

/** How to play a game: its definition's controls, or, for a game the page does not know, its rules' examples as choices. */
export const viewOf = (id: string): GameView => {
  const spec = builtin[id]?.controls
  return spec !== undefined ? fromSpec(spec) : choices(
    (S.rules[id]?.examples ?? []).slice(0, 6).map((x) => [x, () => (typeof x === "string" ? x : JSON.stringify(x)), ""] as const),
    text
  )
}
