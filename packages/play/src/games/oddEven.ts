import { ball } from "../stages.ts"
import { choices } from "./choices.ts"

/** Odd Even: odd or even, on one big ball. */
export const oddEven = choices([["odd", "Odd", "v-odd"], ["even", "Even", "v-even"]], ball, "Odd or even? Pick one, then press Play.")
