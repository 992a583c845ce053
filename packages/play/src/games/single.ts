import { ball } from "../stages.ts"
import { numbers } from "./numbers.ts"

/** Single: one number of 36 on a 9×4 grid, drawn on one big ball. */
export const single = numbers(36, 1, 9, ball)
