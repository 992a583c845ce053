import { isKey } from "../i18n/index.ts"
import { colours } from "@gateway/domain/games/Throws"
import { cubes } from "../stages.ts"
import { choices } from "./choices.ts"

/** Color Game: one of the six colours, on three colour cubes. */
export const colorGame = choices(colours.map((c) => [c, isKey(c) ? c : () => c, "c-" + c] as const), cubes, "colorHint")
