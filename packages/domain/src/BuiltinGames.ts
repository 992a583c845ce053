import { definitions } from "./games/Definitions.ts"

const entryOf = ({ category, id, name }: typeof definitions[number]) => ({ id, name, category })

/** A built-in game. */
export type BuiltinGame = ReturnType<typeof entryOf>

const [first, ...rest] = definitions

/**
 * The games the gateway ships, from their definitions (`games/Definitions.ts`), in the catalogue's order:
 * listed in every catalogue from the first migration, launched at `<PUBLIC_BASE_URL>/play/<id>` with the image
 * `/static/games/<id>.svg`. Categories: 1 number games, 2 colour games, 3 draw (lottery) games. Free of
 * `effect`, as the definitions are, so a browser page may import it.
 */
export const builtinGames: readonly [BuiltinGame, ...Array<BuiltinGame>] = [entryOf(first), ...rest.map(entryOf)]

/** The id of a built-in game. */
export type BuiltinGameId = BuiltinGame["id"]

/** The built-in game with this id, if there is one. */
export const builtinGame = (id: string): BuiltinGame | undefined => builtinGames.find((game) => game.id === id)
