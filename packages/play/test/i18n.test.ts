import { describe, expect, it } from "vitest"
import { am } from "../src/i18n/am.ts"
import { type Catalogue, en, type Key } from "../src/i18n/en.ts"
import { fr } from "../src/i18n/fr.ts"
import { sw } from "../src/i18n/sw.ts"

const placeholders = (text: string): Array<string> => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "").sort()
const keys = Object.keys(en).filter((k): k is Key => k in en)
/** Text that is the same in every language: names of the hash and the games, numbers, codes. */
const same = /^(?:Nonce|Auto|Lotto|\{[^}]+\}(?: \{[^}]+\})*|Total \{total\}|\{a\} \+ \{b\} = \{total\}: \{result\})$/

describe("the page's catalogues", () => {
  for (const [language, catalogue] of Object.entries<Catalogue>({ fr, am, sw })) {
    it(`${language}: every text translated, with the same {placeholders} as the English`, () => {
      const wrong = keys.flatMap((k) => {
        const text = catalogue[k]
        const source = en[k]
        if (text.trim() === "") return [`${k}: empty`]
        if (placeholders(text).join() !== placeholders(source).join()) return [`${k}: ${placeholders(text)} for ${placeholders(source)}`]
        if (text === source && !same.test(source)) return [`${k}: still English`]
        return []
      })
      expect(wrong).toEqual([])
    })
  }

  it("never calls the casino an operator", () => {
    for (const catalogue of [en, fr, am, sw]) expect(Object.values(catalogue).filter((t) => /operat|opérat/i.test(t))).toEqual([])
  })
})
