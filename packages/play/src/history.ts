import { amount, money, toMinor } from "./money.ts"
import { call } from "./api.ts"
import { $, $select, btn, cap1, el } from "./dom.ts"
import { seedOf, verify } from "./fairness.ts"
import { showPanel } from "./panels.ts"
import { S } from "./state.ts"
import type { Round } from "./types.ts"

/** A round's net result: "+1.34 ETB", "−1.00 ETB", "0.00 ETB". */
const signed = (net: bigint): string => (net > 0n ? "+" + money(net) : net < 0n ? "−" + money(-net) : money(net))
const selectionText = (s: unknown): string => (Array.isArray(s) ? s.join(", ") : typeof s === "string" ? cap1(s) : String(s))
/** The rounds whose details are open. */
const open = new Set<string>()

/** This session's rounds, newest first, each expandable with its proof; and the rounds the fairness panel can verify. */
export const renderHistory = (): void => {
  const list = $("rounds")
  $("h-empty").hidden = S.rounds.length > 0
  list.replaceChildren(...S.rounds.map((rd, i) => {
    const f = rd.fairness
    const paid = rd.payout === undefined || rd.payout === null ? null : toMinor(rd.payout)
    const staked = toMinor(rd.stake)
    const net = paid === null || staked === null ? null : paid - staked
    const li = el("li", net !== null && net > 0n ? "win" : "")
    li.dataset["roundId"] = rd.roundId
    const head = btn("rhead")
    const body = el("div", "rbody")
    body.id = "round-" + i
    body.hidden = !open.has(rd.roundId)
    head.setAttribute("aria-expanded", String(open.has(rd.roundId)))
    head.setAttribute("aria-controls", body.id)
    head.append(
      el("span", "", S.names[rd.gameId] ?? rd.gameId),
      el("span", "amt", rd.status !== undefined && rd.status !== "settled" ? cap1(rd.status) : net === null ? "" : signed(net)),
      el("small", "", "Your pick: " + selectionText(rd.selection) + (rd.outcome?.summary ? " · " + rd.outcome.summary : "")),
      el("small", "", "Stake " + amount(rd.stake) + (paid !== null ? " · paid " + money(paid) : "") + (S.checked[rd.roundId] === true ? " · verified" : ""))
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
    row("Round", rd.roundId, true)
    if (rd.createdAt !== undefined) row("Time", new Date(rd.createdAt).toLocaleString())
    row("Your pick", selectionText(rd.selection))
    if (rd.payout !== undefined && rd.payout !== null) row("Paid", amount(rd.payout))
    row("Nonce", String(f?.nonce), true)
    row("Client seed", f?.clientSeed ?? "", true)
    row("Server seed hash", f?.serverSeedHash ?? "", true)
    row("Server seed", seedOf(rd) || "secret until you change the client seed", seedOf(rd) !== "")
    const check = btn("", "Verify this round", () => {
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
      "Nonce " + (rd.fairness?.nonce ?? "?") + " · " + (S.names[rd.gameId] ?? rd.gameId) + " · " +
        (rd.outcome?.summary ?? "") + (seedOf(rd) !== "" ? " (seed revealed)" : "")
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

/** This session's earlier rounds from the server. */
export const loadHistory = async (): Promise<void> => {
  const r = await call<{ readonly data: ReadonlyArray<Round> }>("GET", "/rounds?limit=20")
  if (!r.ok || r.body === null || !Array.isArray(r.body.data)) return
  const known = new Set(S.rounds.map((x) => x.roundId))
  S.rounds = [...S.rounds, ...r.body.data.filter((x) => !known.has(x.roundId))]
  renderHistory()
}
