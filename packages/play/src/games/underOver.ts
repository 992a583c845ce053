import { dice } from "../stages.ts"
import { choices } from "./choices.ts"

/** Under Over: the total of two dice under 7, seven or over 7. */
export const underOver = choices([["under", "under", ""], ["seven", "seven", ""], ["over", "over", ""]], dice, "underOverHint")
