import { dateTime, t } from "./i18n/index.ts"
import { gameName, summaryOf, word } from "./outcomes.ts"
import { amount, money, toMinor } from "./money.ts"
import { call } from "./api.ts"
import { $, $select, btn, cap1, el } from "./dom.ts"
import { seedOf, verify } from "./fairness.ts"
import { showPanel } from "./panels.ts"
import { S } from "./state.ts"
import type { Round } from "./types.ts"

/** A round's net result: "+1.34 ETB", "−1.00 ETB", "0.00 ETB". */
const signed = (net: bigint): string => (net > 0n ? "+" + money(net) : net < 0n ? "−" + money(-net) : money(net))
const selectionText = (s: unknown): string =>
  Array.isArray(s) ? s.join(", ") : typeof s === "string" ? (word(s) !== s ? word(s) : cap1(s)) : String(s)
/** How many rounds the history shows (game recall: the last 10, CONTRACT §6). */
export const RECALL = 10
/** The rounds whose details are open. */
const open = new Set<string>()

/** The last rounds, newest first, each expandable with its proof; and the rounds the fairness panel can verify. */
export const renderHistory = (): void => {
  const list = $("rounds")
  $("h-empty").hidden = S.rounds.length > 0
  list.replaceChildren(...S.rounds.slice(0, RECALL).map((rd, i) => {
    const f = rd.fairness
    const paid = rd.payout === undefined || rd.payout === null ? null : toMinor(rd.payout)
    const staked = toMinor(rd.stake)
    const net = paid === null || staked === null ? null : paid - staked
    const li = el("li", net !== null && net > 0n ? "win" : "")
    const name = gameName(rd.gameId, S.names[rd.gameId] ?? rd.gameId)
    const summary = summaryOf(rd.outcome, rd.selection)
    li.dataset["roundId"] = rd.roundId
    const head = btn("rhead")
    const body = el("div", "rbody")
    body.id = "round-" + i
    body.hidden = !open.has(rd.roundId)
    head.setAttribute("aria-expanded", String(open.has(rd.roundId)))
    head.setAttribute("aria-controls", body.id)
    head.append(
      el("span", "", name),
      el("span", "amt", rd.status !== undefined && rd.status !== "settled" ? cap1(rd.status) : net === null ? "" : signed(net)),
      el("small", "", t("yourPickIs", { pick: selectionText(rd.selection) }) + (summary !== "" ? " · " + summary : "")),
      el("small", "", t("staked", { amount: amount(rd.stake) }) + (paid !== null ? " · " + t("paid", { amount: money(paid) }) : "") +
        (S.checked[rd.roundId] === true ? " · " + t("verified") : ""))
    )
    head.addEventListener("click", () => {
      if (open.has(rd.roundId)) open.delete(rd.roundId)
      else open.add(rd.roundId)
      body.hidden = !open.has(rd.roundId)
      head.setAttribute("aria-expanded", String(open.has(rd.roundId)))
    })
    const dl = el("dl")
    const row = (k: string, v: string, code = false) => {
      const dd = el("dd")
      dd.append(code ? el("code", "", v) : v)
      dl.append(el("dt", "", k), dd)
    }
    row(t("round"), rd.roundId, true)
    if (rd.createdAt !== undefined) row(t("time"), dateTime(rd.createdAt))
    row(t("yourPick"), selectionText(rd.selection))
    if (summary !== "") row(t("outcome"), summary)
    row(t("stake"), amount(rd.stake))
    if (rd.payout !== undefined && rd.payout !== null) row(t("pays"), amount(rd.payout))
    if (net !== null) row(t("netResult"), signed(net))
    row(t("nonce"), String(f?.nonce), true)
    row(t("clientSeed"), f?.clientSeed ?? "", true)
    row(t("serverSeedHash"), f?.serverSeedHash ?? "", true)
    row(t("serverSeed"), seedOf(rd) || t("seedSecret"), seedOf(rd) !== "")
    const check = btn("", t("verifyRound"), () => {
      showPanel("fair")
      $select("verify-round").value = rd.roundId
      void verify()
    })
    body.append(dl, check)
    li.append(head, body)
    return li
  }))
  const pick = $select("verify-round")
  const current = pick.value
  const checkable = S.rounds.filter((rd) => rd.fairness !== undefined && rd.outcome !== undefined)
  pick.replaceChildren(...checkable.map((rd) => {
    const o = el(
      "option",
      "",
      t("nonce") + " " + (rd.fairness?.nonce ?? "?") + " · " + gameName(rd.gameId, S.names[rd.gameId] ?? rd.gameId) + " · " +
        summaryOf(rd.outcome, rd.selection) + (seedOf(rd) !== "" ? " " + t("seedRevealed") : "")
    )
    o.value = rd.roundId
    return o
  }))
  const best = checkable.find((rd) => rd.roundId === current) ?? checkable.find((rd) => seedOf(rd) !== "") ?? checkable[0]
  if (best !== undefined) pick.value = best.roundId
}

/** A round just played, first in the history. */
export const addRound = (rd: Round): void => {
  S.rounds = [rd, ...S.rounds.filter((x) => x.roundId !== rd.roundId)].slice(0, 100)
  renderHistory()
}

/**
 * The earlier rounds from the server: this session's, and the player's last rounds of the game on show from
 * their earlier sessions too (game recall, `GET recall`), newest first.
 */
export const loadHistory = async (): Promise<void> => {
  const lists = await Promise.all([
    call<{ readonly data: ReadonlyArray<Round> }>("GET", "/rounds?limit=" + RECALL),
    call<{ readonly data: ReadonlyArray<Round> }>("GET", "/recall?gameId=" + encodeURIComponent(S.game))
  ])
  const known = new Set(S.rounds.map((x) => x.roundId))
  for (const r of lists) {
    if (!r.ok || r.body === null || !Array.isArray(r.body.data)) continue
    for (const x of r.body.data) {
      if (known.has(x.roundId)) continue
      known.add(x.roundId)
      S.rounds.push(x)
    }
  }
  // A round just played, not yet read back, has no time: it is the newest.
  const at = (x: Round) => x.createdAt ?? "9999"
  S.rounds.sort((a, b) => at(b).localeCompare(at(a)))
  renderHistory()
}
