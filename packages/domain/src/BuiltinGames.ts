/**
 * The games the gateway ships: listed in every catalogue from the first
 * migration, launched at `<PUBLIC_BASE_URL>/play/<id>` with the image
 * `/static/games/<id>.svg`. Categories: 1 number games, 2 colour games,
 * 3 draw (lottery) games. Append-only, like migrations: a released id, name
 * or category never changes.
 */
export const builtinGames = [
  { id: "odd-even", name: "Odd Even", category: 1 },
  { id: "under-over", name: "Under Over", category: 1 },
  { id: "color-game", name: "Color Game", category: 2 },
  { id: "lotto", name: "Lotto", category: 3 },
  { id: "mega-ten", name: "Mega Ten", category: 3 },
  { id: "single", name: "Single", category: 1 }
] as const

/** A built-in game. */
export type BuiltinGame = typeof builtinGames[number]

/** The id of a built-in game. */
export type BuiltinGameId = BuiltinGame["id"]

/** The built-in game with this id, if there is one. */
export const builtinGame = (id: string): BuiltinGame | undefined => builtinGames.find((game) => game.id === id)
