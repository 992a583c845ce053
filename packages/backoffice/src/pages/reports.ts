import { call, query } from "../api.ts"
import { h, section, table } from "../dom.ts"
import { form } from "../form.ts"
import { can } from "@gateway/domain/BackofficeRoles"
import { amount, state } from "../state.ts"
import { day, isoDay, utcPeriod } from "../period.ts"
import type { RevenueShare, SummaryAnswer } from "../types.ts"


/** The GGR report of a period by day, game or player, on screen and as a CSV download. */
export const reports = (main: HTMLElement): void => {
  const out = h("div", { id: "report" })
  let csvUrl: string | undefined
  const period = (f: { value: (name: string) => string }) => ({
    ...utcPeriod(f.value("from"), f.value("to")),
    groupBy: f.value("groupBy")
  })
  const f = form("report-form", [
    { name: "from", label: "From", type: "date", value: isoDay(Date.now() - 29 * day) },
    { name: "to", label: "To (included)", type: "date", value: isoDay(Date.now()) },
    { name: "groupBy", label: "One row per", type: "select", value: "day", options: [["day", "Day"], ["game", "Game"], ["player", "Player"]] }
  ], "Show the report", async (f) => {
    if (f.value("from") === "") return f.error("from", "Choose the first day.")
    if (f.value("to") === "" || f.value("to") < f.value("from")) return f.error("to", "Choose a last day on or after the first.")
    const r = await call<SummaryAnswer>("GET", "/summary" + query({ ...period(f), limit: 100 }))
    if (!r.ok) return f.fail(r.problem)
    const c = r.body.currency
    out.replaceChildren(table(`GGR in ${c}`, ["Group", "Rounds", "Bets", "Wins", "Refunds", "GGR"], [
      ...r.body.data.map((row) => [row.key, String(row.rounds), amount(row.bets), amount(row.wins), amount(row.refunds), amount(row.ggr)]),
      [h("b", {}, "Total"), String(r.body.total.rounds), amount(r.body.total.bets), amount(r.body.total.wins), amount(r.body.total.refunds), h("b", {}, amount(r.body.total.ggr))]
    ]), download)
  })
  const download = h("button", {
    type: "button",
    class: "secondary",
    id: "csv",
    onclick: async () => {
      const r = await call<null>("GET", "/summary" + query(period(f)), undefined, "text/csv")
      if (!r.ok) return f.fail(r.problem)
      if (csvUrl !== undefined) URL.revokeObjectURL(csvUrl)
      csvUrl = URL.createObjectURL(new Blob([r.text], { type: "text/csv" }))
      const link = h("a", { href: csvUrl, download: `ggr-${f.value("from")}-${f.value("to")}.csv` })
      document.body.append(link)
      link.click()
      link.remove()
    }
  }, "Download as CSV")
  const share = h("div", { id: "share" })
  const shareButton = h("button", {
    type: "button",
    class: "secondary",
    onclick: async () => {
      const { from, to } = period(f)
      const r = await call<RevenueShare>("GET", "/revenue-share" + query({ from, to }))
      if (!r.ok) return f.fail(r.problem)
      const c = r.body.currency
      share.replaceChildren(table(`Revenue share in ${c}, GGR ${amount(r.body.ggr)}`, ["Party", "Percent", "Amount"], [
        ...r.body.parts.map((part) => [part.party, part.percent + " %", amount(part.amount)]),
        ["Not shared", "", amount(r.body.remainder)]
      ]))
    }
  }, "Revenue share for this period")
  const mayShare = state.user !== undefined && can(state.user.role, "revenueShare")
  main.append(section("Reports", f.el, out), mayShare ? section("Revenue share", shareButton, share) : "")
}
