import { decimalSeparator, num } from "./i18n/index.ts"
import { S } from "./state.ts"

/** Money in the currency's minor units, as `bigint`: never a float. */

export const unit = (): bigint => 10n ** BigInt(S.digits)

/** "12.5" -> 1250n (2 digits); null for anything that is not a plain amount with at most `digits` decimals. */
export const toMinor = (text: unknown): bigint | null => {
  const m = /^(\d{1,16})(?:[.,](\d+))?$/.exec(String(text).trim())
  if (m === null) return null
  const f = m[2] ?? ""
  if (f.replace(/0+$/, "").length > S.digits) return null
  return BigInt(m[1] ?? "0") * unit() + BigInt((f + "0".repeat(S.digits)).slice(0, S.digits) || "0")
}

/** 1250n -> "12.50". */
export const plain = (v: bigint): string => {
  const u = unit()
  const neg = v < 0n
  const a = neg ? -v : v
  return (neg ? "-" : "") + (a / u).toString() + (S.digits > 0 ? "." + (a % u).toString().padStart(S.digits, "0") : "")
}

/** "1234.50" -> "1,234.50" in English, "1 234,50" in French: grouped and separated as the page's locale writes them. */
export const group = (text: string): string => {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text)
  if (m === null) return text
  return (m[1] ?? "") + num(BigInt(m[2] ?? "0")) + (m[3] === undefined ? "" : decimalSeparator() + m[3])
}
export const money = (v: bigint): string => group(plain(v)) + " " + S.currency
/** An amount as the API writes it, shown with the currency. */
export const amount = (text: unknown): string => {
  const v = toMinor(text)
  return v === null ? String(text) + " " + S.currency : money(v)
}
/** A stake limit of the settings (a number), in minor units. */
export const limit = (n: unknown): bigint | null =>
  typeof n === "number" && isFinite(n) && n > 0 ? toMinor(n.toFixed(S.digits)) : null

/** The currency's decimals: from how the balance is written, else from Intl, else 2. */
export const digitsOf = (balance: unknown, currency: string): number => {
  const m = /\.(\d+)$/.exec(String(balance ?? ""))
  if (m !== null) return (m[1] ?? "").length
  if (/^\d+$/.test(String(balance ?? ""))) return 0
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2
  } catch {
    return 2
  }
}

/** "×2.34" from "2.3400". */
export const times = (m: unknown): string =>
  "×" + String(m).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "").replace(".", decimalSeparator())
