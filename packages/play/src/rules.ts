import { t } from "./i18n/index.ts"
import { conditionOf, gameDescription, gameName } from "./outcomes.ts"
import { $, byId, el } from "./dom.ts"
import { group, times } from "./money.ts"
import { S } from "./state.ts"

/** The rules panel of the game on show: name, description, RTP and pay table. */
export const renderRules = (): void => {
  const rules = S.rules[S.game] ?? {}
  $("r-name").textContent = gameName(S.game, rules.name || S.names[S.game] || "")
  $("r-desc").textContent = gameDescription(S.game, rules.description || "")
  $("r-rtp").textContent = rules.rtp ? group(rules.rtp) + " %" : "–"
  $("rtp").textContent = rules.rtp ? t("rtpShort", { rtp: group(rules.rtp) }) : ""
  renderPays()
}

/** The pay table (for a number game, the rows of as many numbers as are picked) and the strip under the grid. */
export const renderPays = (): void => {
  const rules = S.rules[S.game] ?? {}
  let lines = Array.isArray(rules.payouts) ? rules.payouts : []
  let caption = t("payTable")
  if (lines.some((p) => typeof p.picks === "number")) {
    const all = [...new Set(lines.map((p) => p.picks ?? 0))].sort((a, b) => a - b)
    const k = all.includes(S.picks.length) ? S.picks.length : all[all.length - 1] ?? 0
    lines = lines.filter((p) => p.picks === k)
    caption = k === 1 ? t("paysWithOne") : t("paysWith", { k })
  }
  $("r-caption").textContent = caption
  byId("r-pays", HTMLTableElement).tBodies[0]?.replaceChildren(...lines.map((p) => {
    const tr = el("tr")
    tr.append(el("td", "", conditionOf(S.game, p)), el("td", "", times(p.multiplier)))
    return tr
  }))
  const strip = document.getElementById("paystrip")
  if (strip !== null) {
    strip.replaceChildren(...lines.filter((p) => Number(p.multiplier) > 0).map((p) =>
      el("span", "", (typeof p.hits === "number" ? (p.hits === 1 ? t("hitOne") : t("hits", { hits: p.hits })) : conditionOf(S.game, p)) + " " + times(p.multiplier))
    ))
    stripCue(strip)
  }
}

/**
 * The pay strip scrolls sideways when it is wider than the controls (a phone): it then fades out at the edge
 * that has more (`more-end`, `more-start`) and takes the keyboard's focus, so arrows scroll it.
 */
export const stripCue = (strip: HTMLElement): void => {
  const more = strip.scrollWidth > strip.clientWidth + 1
  strip.classList.toggle("more-end", more && strip.scrollLeft + strip.clientWidth < strip.scrollWidth - 1)
  strip.classList.toggle("more-start", more && strip.scrollLeft > 1)
  if (more) strip.tabIndex = 0
  else strip.removeAttribute("tabindex")
}
