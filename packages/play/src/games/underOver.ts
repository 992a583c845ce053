import { dice } from "../stages.ts"
import { choices } from "./choices.ts"

/** Under Over: the total of two dice under 7, seven or over 7. */
export const underOver = choices([["under", "Under 7", ""], ["seven", "Seven", ""], ["over", "Over 7", ""]], dice, "Will two dice total under 7, seven or over 7? Pick, then press Play.")
