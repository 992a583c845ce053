import { isKey, t } from "./i18n/index.ts"
import { builtin } from "./games/builtin.ts"
import type { Outcome, PayLine } from "./types.ts"

/** The built-in games' picks and results that the catalogues translate. */
const WORDS = new Set(["odd", "even", "under", "seven", "over", "red", "green", "blue", "yellow", "white", "pink"])

/** A pick or a result of a built-in game in the page's language; anything else as it is. */
export const word = (v: unknown): string => (typeof v === "string" && WORDS.has(v) && isKey(v) ? t(v) : String(v))
const lower = (v: unknown): string => word(v).toLocaleLowerCase()

/**
 * A round's outcome in the page's language, from its fields (the built-in
 * games' shapes); the server's English `summary` for any other shape.
 */
export const summaryOf = (o: Outcome | undefined, selection: unknown): string => {
  if (o === undefined) return ""
  const { dice, drawn, hits, matches, number: n, parity, result, total } = o
  if (typeof n === "number" && typeof parity === "string") return t("sumParity", { n, parity: lower(parity) })
  if (Array.isArray(dice) && typeof total === "number") {
    return t("sumDice", { a: word(dice[0]), b: word(dice[1]), total, result: word(result) })
  }
  if (Array.isArray(dice) && typeof matches === "number") {
    return t(matches === 1 ? "sumColour" : "sumColours", { dice: dice.map(word).join(" "), matches })
  }
  if (Array.isArray(hits) && Array.isArray(drawn)) {
    const picks = Array.isArray(selection) ? selection.length : 1
    return hits.length === 0
      ? t("sumHits", { hits: 0, picks })
      : t("sumHitsOf", { hits: hits.length, picks, numbers: hits.join(" ") })
  }
  if (typeof n === "number") return t("sumDrawn", { n })
  return o.summary ?? ""
}

/** A line of the pay table in the page's language, from its selection, picks and hits. */
export const conditionOf = (game: string, p: PayLine): string => {
  if (game === "odd-even" && typeof p.selection === "string") return t("payParity", { pick: lower(p.selection) })
  if (game === "under-over") return p.selection === "under" ? t("payUnder") : p.selection === "seven" ? t("paySeven") : t("payOver")
  if (game === "color-game" && typeof p.hits === "number") return p.hits === 3 ? t("payColourAll") : t("payColour", { hits: p.hits })
  if (game === "single") return t("payOne")
  if ((game === "lotto" || game === "mega-ten") && typeof p.picks === "number" && typeof p.hits === "number") {
    if (p.picks === 1) return t("payOne")
    if (p.hits === 0) return t("payNone", { picks: p.picks })
    return p.hits === 1 ? t("payHit", { picks: p.picks }) : t("payHits", { hits: p.hits, picks: p.picks })
  }
  return p.condition
}

/** A game's name and description in the page's language (a game the page does not know: its rules' own). */
export const gameName = (id: string, fallback: string): string => (Object.hasOwn(builtin, id) && isKey(id) ? t(id) : fallback)
export const gameDescription = (id: string, fallback: string): string => {
  const k = id + ".desc"
  return Object.hasOwn(builtin, id) && isKey(k) ? t(k) : fallback
}
