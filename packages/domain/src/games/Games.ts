import * as ColorGame from "./engines/ColorGame.ts"
import * as Lotto from "./engines/Lotto.ts"
import * as MegaTen from "./engines/MegaTen.ts"
import * as OddEven from "./engines/OddEven.ts"
import * as Single from "./engines/Single.ts"
import * as UnderOver from "./engines/UnderOver.ts"
import type { GameRules } from "./GameRules.ts"

export type { GameOutcome, GameRules, Played } from "./GameRules.ts"
export type { ExpectedMultiplier, PayoutLine } from "./PayTable.ts"
export { formatRtp, rtpFor } from "./Rtp.ts"

/** The rules of the six built-in games, in the order of `BuiltinGames.builtinGames`. */
export const allRules: ReadonlyArray<GameRules> = [
  OddEven.rules,
  UnderOver.rules,
  ColorGame.rules,
  Lotto.rules,
  MegaTen.rules,
  Single.rules
]

const byId: ReadonlyMap<string, GameRules> = new Map(allRules.map((rules) => [rules.id, rules]))

/** The rules of a built-in game, if `gameId` is one. */
export const rulesOf = (gameId: string): GameRules | undefined => byId.get(gameId)
