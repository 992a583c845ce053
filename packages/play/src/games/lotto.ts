import { draw } from "../stages.ts"
import { numbers } from "./numbers.ts"

/** Lotto: up to 6 of 49 on a 7×7 grid; six balls drawn one by one. */
export const lotto = numbers(49, 6, 7, draw(6, "", 320))
