import { t } from "../i18n/index.ts"
import { selectionChanged } from "../changes.ts"
import { btn, el, kids, pressed, rnd } from "../dom.ts"
import { showAlert } from "../notice.ts"
import { stripCue } from "../rules.ts"
import { cells, type Stage } from "../stages.ts"
import { S } from "../state.ts"
import type { GameView } from "./view.ts"

/** Arrow keys, Home and End move the focus within a grid of `cols` columns (one tab stop for the grid). */
const roving = (grid: HTMLElement, cols: number) =>
  grid.addEventListener("keydown", (e) => {
    const all = kids(grid)
    const i = all.findIndex((c) => c === document.activeElement)
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols, Home: -i, End: all.length - 1 - i }
    const d = moves[e.key]
    if (i < 0 || d === undefined) return
    e.preventDefault()
    const j = Math.max(0, Math.min(all.length - 1, i + d))
    const from = all[i]
    const to = all[j]
    if (from === undefined || to === undefined) return
    from.tabIndex = -1
    to.tabIndex = 0
    to.focus()
  })

/** `k` distinct random numbers of 1…n. */
const quick = (n: number, k: number): Array<number> => {
  const pool = Array.from({ length: n }, (_, i) => i + 1)
  const out: Array<number> = []
  for (let i = 0; i < k; i++) out.push(pool.splice(rnd(pool.length), 1)[0] ?? 1)
  return out
}

const syncPicks = (most: number) => {
  for (const c of cells()) pressed(c, S.picks.includes(Number(c.dataset["n"])))
  const count = document.getElementById("pick-count")
  if (count !== null) {
    count.textContent = most > 1
      ? t("picked", { n: S.picks.length, most })
      : S.picks[0] !== undefined ? t("yourNumber", { n: S.picks[0] }) : t("pickANumber")
  }
  selectionChanged()
}

/** A game played by picking 1 to `most` of the numbers 1…n on a grid of `cols` columns, with quick pick and clear. */
export const numbers = (n: number, most: number, cols: number, stage: Stage): GameView => ({
  stage,
  most,
  hint: () => (most > 1 ? t("pickNumbersHint", { most }) : t("pickNumberHint")),
  autoPick: () => {
    S.picks = quick(n, most)
    syncPicks(most)
  },
  controls: (box) => {
    const tools = el("div", "gtools")
    const count = el("span", "count")
    count.id = "pick-count"
    tools.append(count)
    if (most > 1) {
      tools.append(
        btn("", t("quickPick"), () => {
          if (S.busy) return
          S.picks = quick(n, S.picks.length || most)
          syncPicks(most)
        }),
        btn("", t("clear"), () => {
          if (S.busy) return
          S.picks = []
          syncPicks(most)
        })
      )
    }
    box.classList.add("g" + cols)
    const grid = el("div", "grid")
    grid.setAttribute("role", "group")
    grid.setAttribute("aria-label", most > 1 ? t("gridMany", { n, most }) : t("gridOne", { n }))
    for (let i = 1; i <= n; i++) {
      const b = btn("cell", i)
      b.dataset["n"] = String(i)
      b.tabIndex = i === 1 ? 0 : -1
      pressed(b, false)
      grid.append(b)
    }
    grid.addEventListener("click", (e) => {
      const b = e.target instanceof Element ? e.target.closest("button") : null
      if (b === null || S.busy) return
      const v = Number(b.dataset["n"])
      if (most === 1) S.picks = [v]
      else if (S.picks.includes(v)) S.picks = S.picks.filter((p) => p !== v)
      else if (S.picks.length < most) S.picks = [...S.picks, v]
      else return showAlert(t("pickUpTo", { most }))
      syncPicks(most)
    })
    roving(grid, cols)
    const strip = el("div", "paystrip")
    strip.id = "paystrip"
    strip.setAttribute("role", "region")
    strip.setAttribute("aria-label", t("payTable"))
    strip.addEventListener("scroll", () => stripCue(strip), { passive: true })
    new ResizeObserver(() => stripCue(strip)).observe(strip)
    box.append(tools, grid, strip)
    syncPicks(most)
  },
  selection: () => (S.picks.length === 0 ? null : most === 1 ? S.picks[0] : [...S.picks].sort((a, b) => a - b))
})
