import { draw } from "../stages.ts"
import { numbers } from "./numbers.ts"

/** Mega Ten (keno): up to 10 of 80 on a 10×8 grid; twenty small balls drawn quickly. */
export const megaTen = numbers(80, 10, 10, draw(20, "sm", 110))
