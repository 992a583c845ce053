import { celebrate } from "./celebrate.ts"
import { t } from "./i18n/index.ts"
import { gameName, summaryOf } from "./outcomes.ts"
import { call, problem } from "./api.ts"
import { onSelection } from "./changes.ts"
import { $, el } from "./dom.ts"
import { renderFair } from "./fairness.ts"
import { freeGrant, renderFree, tookFree } from "./free.ts"
import { viewOf } from "./games/index.ts"
import { addRound } from "./history.ts"
import { amount, plain, toMinor } from "./money.ts"
import { clearAlert, showAlert } from "./notice.ts"
import { renderPays, renderRules } from "./rules.ts"
import { saveSession } from "./resume.ts"
import { cue } from "./sound.ts"
import { spinStop } from "./stages.ts"
import { readStake } from "./stake.ts"
import { S } from "./state.ts"
import type { Played, Rules } from "./types.ts"
import { setBalance, showStakeTaken } from "./wallet.ts"

/** Play is enabled once a pick is made and no round is under way; the pay table follows the pick. */
export const selectionChanged = (): void => {
  const view = viewOf(S.game)
  const ready = (view.selection() !== null && view.selection() !== undefined) || view.autoPick !== undefined
  $("play").setAttribute("aria-disabled", String(!ready || S.busy))
  renderFree()
  renderPays()
}
onSelection(selectionChanged)

/** The game being opened, until its rules have loaded and its controls are shown. */
let opening: Promise<void> | undefined

/** The game being opened, if one is: settled once its rules have loaded (or failed to) and its controls are shown. */
export const whenOpened = (): Promise<void> | undefined => opening?.catch(() => undefined)

/**
 * Shows a game: its rules (read once), controls and stage. A Play pressed while
 * they load waits for them (`play`), rather than being dropped unseen.
 */
export const openGame = (id: string): Promise<void> => {
  if (S.busy) return Promise.resolve()
  const opened = show(id).finally(() => {
    if (opening === opened) opening = undefined
  })
  opening = opened
  return opened
}

const show = async (id: string): Promise<void> => {
  S.busy = true
  spinStop()
  clearAlert()
  S.game = id
  S.sel = null
  S.picks = []
  $("title").textContent = S.names[id] ?? id
  $("lobby").hidden = true
  $("game").hidden = false
  $("to-lobby").hidden = S.session?.lobby !== true || S.shop !== null
  const result = $("result")
  result.textContent = ""
  result.className = "result hint"
  // The last game's controls and stage go at once: while this game's rules load, they would still take a
  // player's clicks and keys for a game no longer shown.
  const controls = $("controls")
  controls.replaceChildren()
  $("stage").replaceChildren()
  if (S.rules[id] === undefined) {
    const r = await call<Rules>("GET", "/games/" + encodeURIComponent(id) + "/rules")
    if (r.status === 401) return
    if (r.ok && r.body !== null) S.rules[id] = r.body
    else showAlert(problem(r, t("rulesNotLoaded")))
  }
  const rules = S.rules[id] ?? {}
  S.names[id] = gameName(id, rules.name || S.names[id] || id)
  $("title").textContent = S.names[id] ?? id
  document.title = S.names[id] ?? id
  const view = viewOf(id)
  controls.className = "controls"
  $("game").classList.toggle("nums", view.most !== undefined)
  $("game").classList.toggle("one", view.most === 1)
  $("stage").className = "stage"
  view.controls(controls)
  view.stage.idle($("stage"))
  result.textContent = view.hint()
  S.busy = false
  saveSession()
  renderRules()
  selectionChanged()
}

/**
 * Plays a round: the stage spins while the round is decided, then reveals it;
 * the balance, fairness and history follow. Answers the round's net result
 * (payout less stake, minor units), or null when no round was played. With
 * `free`, one of the player's free rounds at its grant's stake (nothing is
 * staked: the net result is the payout).
 */
export const play = async (how: "stake" | "autoplay" | "free" = "stake"): Promise<bigint | null> => {
  const autoplay = how === "autoplay"
  const free = how === "free"
  const pending = whenOpened()
  if (pending !== undefined) await pending
  if (S.busy) return null
  const view = viewOf(S.game)
  if (view.selection() === null || view.selection() === undefined) view.autoPick?.()
  const selection = view.selection()
  if (selection === null || selection === undefined) {
    showAlert(view.most !== undefined ? t("pickNumbersFirst") : t("pickFirst"))
    return null
  }
  const grant = free ? freeGrant() : undefined
  if (free && grant === undefined) return null
  const stake = grant === undefined ? readStake() : toMinor(grant.stake)
  if (stake === null) return null
  clearAlert()
  S.busy = true
  const button = $("play")
  const line = $("result")
  const stage = $("stage")
  button.classList.add("busy")
  selectionChanged()
  line.className = "result"
  line.textContent = t("drawing")
  view.stage.spin(stage)
  if (!free) showStakeTaken(stake)
  cue("draw")
  const body: Record<string, unknown> = free ? { selection, freeRound: true } : { stake: plain(stake), selection }
  if (S.game !== S.session?.gameId) body["gameId"] = S.game
  if (autoplay) body["autoplay"] = true
  const r = await call<Played>("POST", "/rounds", body)
  const done = () => {
    S.busy = false
    button.classList.remove("busy")
    selectionChanged()
  }
  if (r.status === 401) return null
  if (!r.ok || r.body === null || r.body.outcome === undefined) {
    spinStop()
    view.stage.idle(stage)
    stage.className = "stage"
    line.textContent = ""
    showStakeTaken(null)
    if (r.body?.code === "NO_FREE_ROUNDS") tookFree(undefined)
    done()
    showAlert(problem(r, t("roundFailed")))
    return null
  }
  const round = r.body
  await view.stage.reveal(stage, round.outcome, selection)
  const paid = toMinor(round.payout)
  const won = paid !== null ? paid > 0n : Number(round.payout) > 0
  line.className = "result " + (won ? "win" : "loss")
  cue(won ? "win" : "loss")
  const verdict = el("b", "", won ? t("youWin", { amount: amount(round.payout) }) : t("noWin"))
  line.replaceChildren(el("span", "", summaryOf(round.outcome, selection)), verdict)
  if (won) celebrate(amount(round.payout))
  if (won && typeof S.settings.cupImageUrl === "string") {
    const img = el("img")
    img.id = "cup"
    img.alt = t("cup")
    img.src = S.settings.cupImageUrl
    verdict.before(img)
  }
  // A free round sends no debit, so its answer has no balance: the win is added to the one shown.
  const before = toMinor(S.balance)
  setBalance(round.balance ?? (free && before !== null ? plain(before + (paid ?? 0n)) : undefined))
  if (free) {
    tookFree(round.freeRound)
    line.prepend(el("span", "free-tag", t("freeRoundPlayed")))
  }
  if (round.fairness !== undefined) {
    S.fair = { serverSeedHash: round.fairness.serverSeedHash, clientSeed: round.fairness.clientSeed, nonce: round.fairness.nonce + 1 }
    renderFair()
  }
  addRound({
    roundId: round.roundId,
    gameId: round.gameId ?? S.game,
    status: "settled",
    stake: plain(stake),
    selection,
    outcome: round.outcome,
    payout: round.payout,
    createdAt: new Date().toISOString(),
    ...(round.fairness === undefined ? {} : { fairness: round.fairness })
  })
  const net = (paid ?? 0n) - (free ? 0n : stake)
  S.net += net
  saveSession()
  done()
  return net
}
