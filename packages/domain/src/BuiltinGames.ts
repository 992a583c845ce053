import { Array as Arr } from "effect"
import { definitions } from "./games/Definitions.ts"

/**
 * The games the gateway ships, from their definitions (`games/Definitions.ts`):
 * listed in every catalogue from the first migration, launched at
 * `<PUBLIC_BASE_URL>/play/<id>` with the image `/static/games/<id>.svg`.
 * Categories: 1 number games, 2 colour games, 3 draw (lottery) games.
 */
export const builtinGames = Arr.map(definitions, ({ category, id, name }) => ({ id, name, category }))

/** A built-in game. */
export type BuiltinGame = typeof builtinGames[number]

/** The id of a built-in game. */
export type BuiltinGameId = BuiltinGame["id"]

/** The built-in game with this id, if there is one. */
export const builtinGame = (id: string): BuiltinGame | undefined => builtinGames.find((game) => game.id === id)
