import { call, query } from "../api.ts"
import { facts, h, section, table } from "../dom.ts"
import { form } from "../form.ts"
import { amount, when } from "../state.ts"
import { day, isoDay, utcPeriod } from "../period.ts"
import type { Details, Round, RoundList } from "../types.ts"

/** The round's proof as its signed link answers it in JSON (the gateway's own origin; elsewhere only the link). */
const proof = (url: string): HTMLElement => {
  const out = h("div", { class: "proof-data" })
  if (URL.parse(url)?.origin !== location.origin) return out
  fetch(url, { headers: { accept: "application/json" }, credentials: "omit" })
    .then((res) => (res.ok ? res.json() : undefined))
    .then((details: Details | undefined) => {
      const f = details?.fairness
      if (f === undefined) return void out.append(h("p", { class: "hint" }, "This round has no fairness record."))
      out.append(h("h3", {}, "Provably fair"), facts([
        ["Server seed hash", h("code", {}, f.serverSeedHash)],
        ["Client seed", h("code", {}, f.clientSeed)],
        ["Nonce", String(f.nonce)],
        ["Server seed", f.serverSeed === undefined ? "not revealed yet (when the player changes seeds or the session ends)" : h("code", {}, f.serverSeed)]
      ]))
    }, () => out.append(h("p", { class: "hint" }, "The proof could not be loaded; open its page.")))
  return out
}

const roundView = (round: Round): HTMLElement =>
  section(`Round ${round.roundId}`,
    facts([
      ["Game", round.gameId],
      ["Player", round.playerId],
      ["Played", when(round.createdAt)],
      ["Mode", round.mode],
      ["Status", round.status],
      ["Stake", `${amount(round.stake)} ${round.currency}`],
      ["Payout", round.payout === null ? "not settled" : `${amount(round.payout)} ${round.currency}`]
    ]),
    round.roundDetailsUrl === undefined ? "" : h("p", {}, h("a", { href: round.roundDetailsUrl, target: "_blank", rel: "noopener", class: "proof" }, "The round's proof (opens its page)")),
    round.roundDetailsUrl === undefined ? "" : proof(round.roundDetailsUrl),
    table("Transactions", ["Transaction", "Type", "Amount", "Delivery"], round.transactions.map((t) => [h("code", {}, t.transactionId), t.type, amount(t.amount), t.status])))

/** Looks rounds up by round id, transaction id or player, each with its proof. */
export const rounds = (main: HTMLElement): void => {
  const found = h("div", { id: "found" })
  const f = form("lookup", [
    { name: "by", label: "Look up by", type: "select", value: "roundId", options: [["roundId", "Round id"], ["transactionId", "Transaction id"], ["playerId", "Player id"]] },
    { name: "value", label: "Id", required: true, maxlength: 128 },
    { name: "from", label: "A player's rounds from", type: "date", value: isoDay(Date.now() - 29 * day), hint: "UTC days; a round or transaction id is looked up in all your rounds." },
    { name: "to", label: "To (included)", type: "date", value: isoDay(Date.now()) }
  ], "Find", async (f) => {
    if (f.value("value") === "") return f.error("value", "Enter the id to look up.")
    const byPlayer = f.value("by") === "playerId"
    if (byPlayer && (f.value("from") === "" || f.value("to") === "")) return f.error("from", "Choose the days to look in.")
    const period = byPlayer ? utcPeriod(f.value("from"), f.value("to")) : {}
    const r = await call<RoundList>("GET", "/rounds" + query({ [f.value("by")]: f.value("value"), ...period, limit: 20 }))
    if (!r.ok) return f.fail({ ...r.problem, detail: r.problem.detail.replace(/\b(roundId|transactionId|playerId)\b/, "value") })
    if (r.body.data.length === 0) return f.error("value", "No round found with this id.")
    found.replaceChildren(...r.body.data.map(roundView))
  })
  main.append(section("Find a round", f.el), found)
}
