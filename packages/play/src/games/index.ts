import { text } from "../stages.ts"
import { S } from "../state.ts"
import { choices } from "./choices.ts"
import { colorGame } from "./colorGame.ts"
import { lotto } from "./lotto.ts"
import { megaTen } from "./megaTen.ts"
import { oddEven } from "./oddEven.ts"
import { single } from "./single.ts"
import { underOver } from "./underOver.ts"
import type { GameView } from "./view.ts"

export type { GameView } from "./view.ts"

/** Each built-in game's controls and stage, by id. */
const GAMES: Readonly<Record<string, GameView>> = {
  "odd-even": oddEven,
  "under-over": underOver,
  "color-game": colorGame,
  "lotto": lotto,
  "mega-ten": megaTen,
  "single": single
}

/** How to play a game: its own view, or, for a game the page does not know, its rules' examples as choices. */
export const viewOf = (id: string): GameView =>
  GAMES[id] ?? choices(
    (S.rules[id]?.examples ?? []).slice(0, 6).map((x) => [x, () => (typeof x === "string" ? x : JSON.stringify(x)), ""] as const),
    text
  )
