import * as ColorGame from "./engines/ColorGame.ts"
import * as Lotto from "./engines/Lotto.ts"
import * as MegaTen from "./engines/MegaTen.ts"
import * as OddEven from "./engines/OddEven.ts"
import * as Single from "./engines/Single.ts"
import * as UnderOver from "./engines/UnderOver.ts"

/**
 * The built-in games, in catalogue order: the one list a new game is added
 * to (its module defines the rest, see docs/games.md "Adding a game").
 * Append-only, like migrations: a released id, name, category or profit
 * setting never changes.
 */
export const definitions = [
  OddEven.definition,
  UnderOver.definition,
  ColorGame.definition,
  Lotto.definition,
  MegaTen.definition,
  Single.definition
] as const
