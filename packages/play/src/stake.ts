import { t } from "./i18n/index.ts"
import { $, $input, btn, kids, pressed } from "./dom.ts"
import { group, limit, money, plain, toMinor, unit } from "./money.ts"
import { showAlert } from "./notice.ts"
import { S } from "./state.ts"

/** The merchant's smallest and largest stake, in minor units (null: no limit). */
const limits = () => ({ min: limit(S.settings.minimumStake), max: limit(S.settings.maximumStake) })
const capStake = (value: bigint): bigint => {
  const { min, max } = limits()
  let v = value
  if (max !== null && v > max) v = max
  if (min !== null && v < min) v = min
  return v < 1n ? 1n : v
}
const stakeInput = () => $input("stake")
const syncStake = () => {
  const v = toMinor(stakeInput().value)
  for (const b of kids($("presets"))) pressed(b, v !== null && String(v) === b.dataset["v"])
}
const setStake = (v: bigint) => {
  stakeInput().value = plain(v)
  syncStake()
}

/** The stake row: presets from the smallest stake, ½ and 2×, within the merchant's limits. */
export const setupStake = (): void => {
  const { min, max } = limits()
  const base = min ?? unit()
  const values = [...new Set([1n, 2n, 5n, 10n].map((k) => capStake(base * k)))]
  $("presets").replaceChildren(...values.map((v) => {
    const b = btn("", group(plain(v)), () => setStake(v))
    b.dataset["v"] = String(v)
    b.setAttribute("aria-label", t("stakeOf", { amount: money(v) }))
    return b
  }))
  stakeInput().inputMode = S.digits > 0 ? "decimal" : "numeric"
  $("cur").textContent = S.currency
  $("limits").textContent = (min !== null ? t("smallestStake", { amount: money(min) }) + " " : "") +
    (max !== null ? t("largestStake", { amount: money(max) }) : "")
  setStake(capStake(base))
  stakeInput().addEventListener("input", syncStake)
  $("half").addEventListener("click", () => {
    const v = toMinor(stakeInput().value)
    setStake(capStake(v === null ? base : v / 2n))
  })
  $("double").addEventListener("click", () => {
    const v = toMinor(stakeInput().value)
    setStake(capStake(v === null ? base : v * 2n))
  })
}

/** The stake typed, or null after telling the player what is wrong with it. */
export const readStake = (): bigint | null => {
  const v = toMinor(stakeInput().value)
  const { min, max } = limits()
  if (v === null || v <= 0n) {
    showAlert(S.digits > 0
      ? t("enterStake", { example: group("2." + "5".padEnd(S.digits, "0")), digits: S.digits })
      : t("enterWholeStake"))
    return null
  }
  if (min !== null && v < min) {
    showAlert(t("stakeTooSmall", { amount: money(min) }))
    return null
  }
  if (max !== null && v > max) {
    showAlert(t("stakeTooLarge", { amount: money(max) }))
    return null
  }
  return v
}
