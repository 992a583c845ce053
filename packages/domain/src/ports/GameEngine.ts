import type { Effect } from "effect"
import { Context } from "effect"
import type { Outcome } from "../Round.ts"
import type { ValidationFailed } from "../Validation.ts"

/** Decides rounds. Implementations draw from a fair random source. */
export class GameEngine extends Context.Service<GameEngine, {
  /** Checks a selection before any money moves; an unknown game or a bad selection is ValidationFailed. */
  validate(gameId: string, selection: string): Effect.Effect<void, ValidationFailed>
  play(gameId: string, selection: string, stake: bigint): Effect.Effect<Outcome>
}>()("@gateway/domain/ports/GameEngine") {}
