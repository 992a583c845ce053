import { Effect, Layer } from "effect"
import { GameEngine } from "@gateway/domain/ports/GameEngine"
import { ValidationFailed } from "@gateway/domain/Validation"
import { randomInt } from "node:crypto"
import * as OddEven from "./OddEven.ts"

/** A source of uniform integers in [min, max) — `node:crypto` `randomInt` in production. */
export type Draw = (min: number, max: number) => number

/** The built-in games the catalogue lists that cannot be played yet. */
export const notPlayableYet: ReadonlyArray<string> = ["under-over", "color-game", "lotto", "mega-ten", "single"]

const isOddEvenSelection = (selection: string): boolean => OddEven.selections.some((s) => s === selection)

const refuse = (gameId: string, selection: string): ValidationFailed | undefined => {
  if (gameId === "odd-even") {
    return isOddEvenSelection(selection) ? undefined : new ValidationFailed({
      field: "selection",
      detail: `must be one of ${OddEven.selections.map((s) => `"${s}"`).join(", ")}`
    })
  }
  return new ValidationFailed({
    field: "gameId",
    detail: notPlayableYet.includes(gameId)
      ? `the game '${gameId}' is not playable yet`
      : `the game '${gameId.slice(0, 64)}' has no engine`
  })
}

/**
 * The game engine: `odd-even` draws 1..36 from a cryptographically secure
 * source and pays 1.95× the stake on the chosen parity (see {@link OddEven});
 * every other game is refused by `validate` with ValidationFailed.
 */
export const make = (draw: Draw = randomInt): GameEngine["Service"] =>
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

/** The engine over `node:crypto` `randomInt`. */
export const layer: Layer.Layer<GameEngine> = Layer.succeed(GameEngine, make())
