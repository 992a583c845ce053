import { colours } from "@gateway/domain/games/Throws"
import { cap1 } from "../dom.ts"
import { cubes } from "../stages.ts"
import { choices } from "./choices.ts"

/** Color Game: one of the six colours, on three colour cubes. */
export const colorGame = choices(colours.map((c) => [c, cap1(c), "c-" + c] as const), cubes, "Pick a colour, then press Play: three dice are thrown.")
