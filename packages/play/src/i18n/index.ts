import { am } from "./am.ts"
import { type Catalogue, en, type Key } from "./en.ts"
import { fr } from "./fr.ts"
import { sw } from "./sw.ts"

export type { Key } from "./en.ts"

/** Every language the page speaks, by its BCP 47 primary subtag. */
const CATALOGUES: Readonly<Record<string, Catalogue>> = { en, fr, am, sw }

let text: Catalogue = en
let locale = "en"

/** The page's language: one it speaks, else English. */
export const setLanguage = (tag: string | undefined): void => {
  const primary = (tag ?? "").split(/[-_]/)[0]?.toLowerCase() ?? ""
  const found = CATALOGUES[primary]
  text = found ?? en
  locale = found === undefined ? "en" : primary
  document.documentElement.lang = locale
}
export const language = (): string => locale

/** The text of `key` in the page's language, with each `{name}` replaced by `vars[name]`. */
export const t = (key: Key, vars: Readonly<Record<string, string | number>> = {}): string =>
  text[key].replace(/\{(\w+)\}/g, (all, name: string) => {
    const v = vars[name]
    return v === undefined ? all : typeof v === "number" ? num(v) : v
  })

/** A key of the catalogue, for text that comes from elsewhere (a game id, a problem code). */
export const isKey = (k: string): k is Key => Object.hasOwn(en, k)

/** An integer in the page's locale ("1 234" in French). */
export const num = (n: number | bigint): string => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(n)

/** The locale's decimal separator. */
export const decimalSeparator = (): string =>
  new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? "."

/** A duration of whole minutes as the locale writes it ("1 h 05 min"). */
export const minutes = (total: number): string => {
  const h = Math.floor(total / 60)
  const m = total % 60
  const unit = (value: number, u: "hour" | "minute") =>
    new Intl.NumberFormat(locale, { style: "unit", unit: u, unitDisplay: "short" }).format(value)
  return h > 0 ? unit(h, "hour") + " " + unit(m, "minute") : unit(m, "minute")
}

/** A date and time as the locale writes it. */
export const dateTime = (iso: string): string => new Date(iso).toLocaleString(locale)

/**
 * Puts the page's language into its markup: `data-t` sets an element's text,
 * `data-t-label` its `aria-label`, `data-t-ph` its placeholder.
 */
export const translatePage = (root: ParentNode = document): void => {
  const apply = (attr: string, set: (e: HTMLElement, v: string) => void) => {
    for (const e of root.querySelectorAll<HTMLElement>(`[${attr}]`)) {
      const k = e.getAttribute(attr) ?? ""
      if (isKey(k)) set(e, t(k))
    }
  }
  apply("data-t", (e, v) => { e.textContent = v })
  apply("data-t-label", (e, v) => e.setAttribute("aria-label", v))
  apply("data-t-ph", (e, v) => e.setAttribute("placeholder", v))
}
