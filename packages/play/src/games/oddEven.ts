import { ball } from "../stages.ts"
import { choices } from "./choices.ts"

/** Odd Even: odd or even, on one big ball. */
export const oddEven = choices([["odd", "odd", "v-odd"], ["even", "even", "v-even"]], ball, "oddEvenHint")
