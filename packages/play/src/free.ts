import { $ } from "./dom.ts"
import { t } from "./i18n/index.ts"
import { amount } from "./money.ts"
import { S } from "./state.ts"
import type { FreeGrant } from "./types.ts"

/** The grants of a session's answer the page can use: well formed, with rounds left. */
export const freeGrantsOf = (list: unknown): Array<FreeGrant> =>
  Array.isArray(list)
    ? list.filter((g): g is FreeGrant =>
      typeof g === "object" && g !== null && typeof g.grantId === "string" && typeof g.stake === "string" &&
      Number.isInteger(g.remaining) && g.remaining > 0)
    : []

/** The grant the next free round is taken from (the server's pick: the first to expire), in the launched game only. */
export const freeGrant = (): FreeGrant | undefined =>
  S.game !== "" && S.game === S.session?.gameId ? S.free.find((g) => g.remaining > 0) : undefined

/** Offers the free rounds before real stakes: "N free rounds at X — play free", hidden when there are none. */
export const renderFree = (): void => {
  const button = $("free")
  const grant = freeGrant()
  button.hidden = grant === undefined
  if (grant === undefined) return
  button.textContent = grant.remaining === 1
    ? t("freeRoundOne", { amount: amount(grant.stake) })
    : t("freeRounds", { count: grant.remaining, amount: amount(grant.stake) })
  button.setAttribute("aria-disabled", String(S.busy))
}

/** What a free round left of its grant; `undefined`: none left at all (the server said NO_FREE_ROUNDS). */
export const tookFree = (left: { readonly grantId: string; readonly remaining: number } | undefined): void => {
  S.free = left === undefined ? [] : S.free.map((g) => g.grantId === left.grantId ? { ...g, remaining: left.remaining } : g)
  renderFree()
}
