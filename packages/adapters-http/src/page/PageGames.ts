import { definitions } from "@gateway/domain/games/Definitions"
import type { GameDefinition } from "@gateway/domain/games/GameDefinition"

/**
 * What the browser needs of built-in games, from their definitions: by id, how each draws (the verifier
 * recomputes rounds with it) and, for the game page, its controls. Sent as the body's `data-games` JSON, so
 * that a new game's module is all the page needs (packages/play/src/games/builtin.ts reads it).
 */
export const pageGames = (games: ReadonlyArray<GameDefinition> = definitions, controls = true): string =>
  JSON.stringify(Object.fromEntries(games.map((game) => [
    game.id,
    controls ? { draw: game.draw, controls: game.controls } : { draw: game.draw }
  ])))
