import { Effect } from "effect"
import { builtinGame } from "../BuiltinGames.ts"
import { GameEngine } from "../ports/GameEngine.ts"
import { ValidationFailed } from "../Validation.ts"
import * as OddEven from "./OddEven.ts"

/** A source of uniform integers in [min, max) — a cryptographically secure one in production. */
export type Draw = (min: number, max: number) => number

/** Whether the built-in engine plays this game. */
export const isPlayable = (gameId: string): boolean => gameId === "odd-even"

const refuse = (gameId: string, selection: string): ValidationFailed | undefined => {
  if (gameId === "odd-even") {
    return OddEven.selections.some((s) => s === selection) ? undefined : new ValidationFailed({
      field: "selection",
      detail: `must be one of ${OddEven.selections.map((s) => `"${s}"`).join(", ")}`
    })
  }
  return new ValidationFailed({
    field: "gameId",
    detail: builtinGame(gameId) !== undefined
      ? `the game '${gameId}' is not playable yet`
      : `the game '${gameId.slice(0, 64)}' has no engine`
  })
}

/**
 * The built-in games' engine: `odd-even` draws 1..36 from `draw` and pays
 * 1.95× the stake on the chosen parity (see {@link OddEven}); every other
 * game is refused by `validate` with ValidationFailed.
 */
export const make = (draw: Draw): GameEngine["Service"] =>
  GameEngine.of({
    validate: (gameId, selection) => {
      const refused = refuse(gameId, selection)
      return refused === undefined ? Effect.void : Effect.fail(refused)
    },
    play: (gameId, selection, stake) =>
      Effect.suspend(() => {
        if (refuse(gameId, selection) !== undefined) return Effect.die(new Error(`play before validate: ${gameId}`))
        const drawn = draw(OddEven.lowest, OddEven.highest + 1)
        return Effect.succeed({ outcome: OddEven.outcome(drawn), payout: OddEven.payout(selection, drawn, stake) })
      })
  })
