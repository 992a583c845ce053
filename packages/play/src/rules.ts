import { $, byId, el } from "./dom.ts"
import { times } from "./money.ts"
import { S } from "./state.ts"

/** The rules panel of the game on show: name, description, RTP and pay table. */
export const renderRules = (): void => {
  const rules = S.rules[S.game] ?? {}
  $("r-name").textContent = rules.name || S.names[S.game] || ""
  $("r-desc").textContent = rules.description || ""
  $("r-rtp").textContent = rules.rtp ? rules.rtp + " %" : "–"
  $("rtp").textContent = rules.rtp ? "RTP " + rules.rtp + " %" : ""
  renderPays()
}

/** The pay table (for a number game, the rows of as many numbers as are picked) and the strip under the grid. */
export const renderPays = (): void => {
  const rules = S.rules[S.game] ?? {}
  let lines = Array.isArray(rules.payouts) ? rules.payouts : []
  let caption = "Pay table"
  if (lines.some((p) => typeof p.picks === "number")) {
    const all = [...new Set(lines.map((p) => p.picks ?? 0))].sort((a, b) => a - b)
    const k = all.includes(S.picks.length) ? S.picks.length : all[all.length - 1] ?? 0
    lines = lines.filter((p) => p.picks === k)
    caption = "Pays with " + k + " number" + (k === 1 ? "" : "s") + " picked"
  }
  $("r-caption").textContent = caption
  byId("r-pays", HTMLTableElement).tBodies[0]?.replaceChildren(...lines.map((p) => {
    const tr = el("tr")
    tr.append(el("td", "", p.condition), el("td", "", times(p.multiplier)))
    return tr
  }))
  const strip = document.getElementById("paystrip")
  if (strip !== null) {
    strip.replaceChildren(...lines.filter((p) => Number(p.multiplier) > 0).map((p) =>
      el("span", "", (typeof p.hits === "number" ? p.hits + " hit" + (p.hits === 1 ? "" : "s") : p.condition) + " " + times(p.multiplier))
    ))
  }
}
