import { Layer } from "effect"
import * as BuiltinEngine from "@gateway/domain/games/BuiltinEngine"
import { GameEngine } from "@gateway/domain/ports/GameEngine"
import { randomInt } from "node:crypto"

/** The domain's built-in engine drawing from `node:crypto` `randomInt` (uniform, no modulo bias). */
export const layer: Layer.Layer<GameEngine> = Layer.succeed(GameEngine, BuiltinEngine.make(randomInt))
