import type { Me } from "./api.ts"

/** The app's state, in one place: the signed-in user (undefined when signed out). */
export const state: { user: Me | undefined } = { user: undefined }

/** Goes to a page (`#/path`); the router renders it. */
export const go = (path: string): void => {
  if (location.hash === "#" + path) window.dispatchEvent(new HashChangeEvent("hashchange"))
  else location.hash = path
}

/** Money and counts as people read them: the API's decimal strings with grouping, never through a float's rounding. */
export const amount = (text: string | undefined): string => {
  if (text === undefined) return "–"
  const [whole = "0", fraction] = text.split(".")
  const sign = whole.startsWith("-") ? "−" : ""
  const digits = whole.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return sign + digits + (fraction === undefined ? "" : "." + fraction)
}

/** A date-time as people read it, in their time zone. */
export const when = (iso: string): string => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
}
