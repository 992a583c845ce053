import { beforeAll, describe, expect, it } from "vitest"

/**
 * A game the server's definitions list (the page's `data-games`) but no catalogue names: the page shows the
 * definition's own text (its rules' name, description and pay lines) in any language rather than break.
 */
/** What the test calls of the page's modules (imported by a computed path: the root typecheck has no DOM types). */
interface Outcomes {
  gameName(id: string, fallback: string): string
  gameDescription(id: string, fallback: string): string
  word(v: unknown): string
  conditionOf(game: string, line: { selection: unknown; condition: string; multiplier: string }): string
  summaryOf(outcome: { summary: string }, selection: unknown): string
}
interface I18n {
  setLanguage(tag: string): void
  t(key: string): string
}
const load = (path: string): Promise<unknown> => import(path)
let outcomes: Outcomes
let i18n: I18n

beforeAll(async () => {
  const games = {
    "odd-even": { draw: { kind: "number", max: 36 } },
    "coin-flip": { draw: { kind: "number", max: 2 }, controls: { kind: "choices", choices: [["heads", ""], ["tails", ""]], hint: "coinFlipHint", stage: "ball" } }
  }
  Object.assign(globalThis, { document: { body: { dataset: { games: JSON.stringify(games) } }, documentElement: { lang: "en" } } })
  i18n = await load("../src/i18n/index.ts") as I18n
  outcomes = await load("../src/outcomes.ts") as Outcomes
})

describe("a new game no catalogue names yet", () => {
  for (const language of ["en", "fr", "am", "sw"]) {
    it(`in ${language}: its name, description, picks and pay lines are the definition's own`, () => {
      i18n.setLanguage(language)
      expect(outcomes.gameName("coin-flip", "Coin Flip")).toBe("Coin Flip")
      expect(outcomes.gameDescription("coin-flip", "A coin is flipped.")).toBe("A coin is flipped.")
      expect(outcomes.word("heads")).toBe("heads")
      expect(outcomes.conditionOf("coin-flip", { selection: "heads", condition: "heads shows", multiplier: "1.95" })).toBe("heads shows")
      expect(outcomes.summaryOf({ summary: "heads" }, "heads")).toBe("heads")
      // A game the catalogues name is translated as before.
      expect(outcomes.gameName("odd-even", "Odd Even")).toBe(i18n.t("odd-even"))
    })
  }
})
