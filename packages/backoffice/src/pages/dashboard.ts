import { call, query } from "../api.ts"
import { type Child, h, section, table } from "../dom.ts"
import { form, plain } from "../form.ts"
import { barChart } from "../chart.ts"
import { amount } from "../state.ts"
import { day, isoDay, utcPeriod } from "../period.ts"
import type { SummaryAnswer } from "../types.ts"

const number = (text: string): number => Number.parseFloat(text) || 0

/** The period's summary grouped by `groupBy`, every group (a period is at most 100 days or 6 games). */
const summary = (groupBy: "day" | "game", from: string, to: string) =>
  call<SummaryAnswer>("GET", "/summary" + query({ groupBy, ...utcPeriod(from, to), limit: 100 }))

const tile = (label: string, value: Child) => h("div", { class: "tile" }, h("span", { class: "label" }, label), h("b", {}, value))

/** Today's rounds, bets, wins and GGR, and charts over a chosen period by day and by game. */
export const dashboard = async (main: HTMLElement): Promise<void> => {
  const today = await call<SummaryAnswer>("GET", "/summary")
  const figures = !today.ok
    ? h("p", { class: "err", role: "alert" }, plain(today.problem))
    : h("div", { class: "tiles", id: "today" },
      tile("Rounds", String(today.body.total.rounds)),
      tile("Bets", `${amount(today.body.total.bets)} ${today.body.currency}`),
      tile("Wins", `${amount(today.body.total.wins)} ${today.body.currency}`),
      tile("GGR", `${amount(today.body.total.ggr)} ${today.body.currency}`))
  const charts = h("div", { id: "charts", class: "charts" })
  const period = form("period", [
    { name: "from", label: "From", type: "date", value: isoDay(Date.now() - 6 * day) },
    { name: "to", label: "To (included)", type: "date", value: isoDay(Date.now()) }
  ], "Show", async (f) => {
    const from = f.value("from")
    const to = f.value("to")
    if (!/^\d{4}-\d{2}-\d{2}$/.test(from)) return f.error("from", "Choose the first day.")
    if (!/^\d{4}-\d{2}-\d{2}$/.test(to) || to < from) return f.error("to", "Choose a last day on or after the first.")
    // One after the other: the server runs one report per merchant at a time (REPORTS_MAX_PER_MERCHANT, 1 by default)
    // and refuses a second one asked for at once.
    const byDay = await summary("day", from, to)
    if (!byDay.ok) return f.fail(byDay.problem)
    const byGame = await summary("game", from, to)
    if (!byGame.ok) return f.fail(byGame.problem)
    const rows = (s: SummaryAnswer) => s.data.map((row) => [row.key, String(row.rounds), amount(row.bets), amount(row.wins), amount(row.ggr)])
    const heads = (first: string) => [first, "Rounds", `Bets (${byDay.body.currency})`, `Wins (${byDay.body.currency})`, `GGR (${byDay.body.currency})`]
    charts.replaceChildren(
      barChart("GGR by day", ["GGR"], byDay.body.data.map((row) => ({ label: row.key, values: [number(row.ggr)] }))),
      h("details", {}, h("summary", {}, "The numbers by day"), table("By day", heads("Day"), rows(byDay.body))),
      barChart("Bets and wins by game", ["Bets", "Wins"], byGame.body.data.map((row) => ({ label: row.key, values: [number(row.bets), number(row.wins)] }))),
      h("details", {}, h("summary", {}, "The numbers by game"), table("By game", heads("Game"), rows(byGame.body)))
    )
  })
  main.append(section("Today (UTC)", figures), section("A period", period.el, charts))
  period.el.requestSubmit()
}
