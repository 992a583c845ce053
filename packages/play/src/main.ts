import { setupAutoplay } from "./autoplay.ts"
import { api, detailOf, MSG, problem, type Reply } from "./api.ts"
import { $, $input } from "./dom.ts"
import { randomSeed, renderFair, rotate, verify } from "./fairness.ts"
import { loadHistory, renderHistory } from "./history.ts"
import { loadGames, showLobby } from "./lobby.ts"
import { digitsOf } from "./money.ts"
import { clearAlert, fatal } from "./notice.ts"
import { closePanel, nonOpen, showPanel, togglePanel } from "./panels.ts"
import { openGame, play } from "./play.ts"
import { savedSession, saveSession } from "./resume.ts"
import { setupSound } from "./sound.ts"
import { setupStake } from "./stake.ts"
import { data, S } from "./state.ts"
import type { Opened } from "./types.ts"
import { brand, setBalance } from "./wallet.ts"

/**
 * The player's page: it redeems the launch token once, shows the merchant's
 * lobby and branding, plays each game's rounds with the session token, keeps
 * this session's history and verifies rounds.
 */

const OPEN_AGAIN = "Open the game again from the casino's site."

const redeemFailed = (r: Reply<unknown>): void => {
  if (r.status === 401) {
    return /expired/i.test(detailOf(r))
      ? fatal("This link has expired", "Game links work for a short time only. " + OPEN_AGAIN)
      : fatal("This link is not valid", OPEN_AGAIN)
  }
  if (r.status === 409) return fatal("This link was already used", MSG["TOKEN_ALREADY_USED"] ?? "")
  if (r.status === 422) return fatal("The game cannot start", problem(r, MSG["PLAYER_REJECTED"] ?? ""))
  if (r.status === 400) return fatal("The game cannot start", problem(r, "This game link is not valid."))
  fatal("The game cannot start", problem(r, "The game could not be opened. Please try again."), r.status === 0 || r.status >= 429)
}

/** What a session starts from: a redeemed launch, or the session this tab kept before a reload. */
interface Begin {
  readonly launch: string
  readonly sessionToken: string
  readonly session: Opened["session"]
  readonly settings?: Opened["settings"] | undefined
  readonly balance?: string | null | undefined
  readonly fairness?: Opened["fairness"] | null | undefined
  readonly digits?: number
  readonly game?: string
  readonly seeds?: Record<string, string>
}

const begin = async (b: Begin): Promise<void> => {
  S.busy = false
  S.launch = b.launch
  S.token = b.sessionToken
  S.session = b.session
  S.settings = b.settings ?? {}
  S.currency = b.session.currency
  S.digits = b.digits ?? digitsOf(b.balance, S.currency)
  S.fair = b.fairness ?? null
  S.seeds = { ...b.seeds }
  saveSession()
  brand(S.settings)
  setBalance(b.balance)
  $("mode").hidden = b.session.mode !== "demo"
  $("tabs").hidden = false
  setupStake()
  setupSound()
  setupAutoplay()
  renderFair()
  renderHistory()
  if (window.matchMedia("(min-width: 860px)").matches) showPanel("rules")
  if (b.session.lobby) await loadGames()
  await openGame(b.game || b.session.gameId || (data["game"] ?? ""))
  void loadHistory()
}

const start = async (): Promise<void> => {
  const token = data["token"] ?? ""
  const saved = savedSession()
  // A reload (the address no longer has the token), or the framing page reloaded with the link this tab redeemed.
  if (saved !== undefined && (token === "" || token === saved.launch)) return begin(saved)
  if (token === "") return fatal("This link is incomplete", OPEN_AGAIN)
  $("notice").hidden = true
  $("loading").hidden = false
  const r = await api<Opened>("POST", "/sessions", { token })
  $("loading").hidden = true
  if (r.status !== 201 || r.body === null || r.body.session === undefined) return redeemFailed(r)
  await begin({ ...r.body, launch: token })
}

history.replaceState(null, "", location.pathname)
$("play").addEventListener("click", () => void play())
$("to-lobby").addEventListener("click", showLobby)
$("tab-rules").addEventListener("click", () => togglePanel("rules"))
$("tab-history").addEventListener("click", () => togglePanel("history"))
$("tab-fair").addEventListener("click", () => togglePanel("fair"))
$("close-side").addEventListener("click", closePanel)
$("alert-close").addEventListener("click", clearAlert)
$("seed-form").addEventListener("submit", (e) => void rotate(e))
$("seed-random").addEventListener("click", () => {
  $input("seed-input").value = randomSeed()
})
$("verify").addEventListener("click", () => void verify())
$("retry").addEventListener("click", () => void start())
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && $("app").classList.contains("open")) closePanel()
})
window.matchMedia("(min-width: 860px)").addEventListener("change", (e) => {
  if (!e.matches) closePanel()
  else if (S.session !== null && nonOpen()) showPanel("rules")
})
void start()
