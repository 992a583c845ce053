import { setupAutoplay } from "./autoplay.ts"
import { api, detailOf, problem, type Reply } from "./api.ts"
import { hideCelebration, setupCelebration } from "./celebrate.ts"
import { $, $input } from "./dom.ts"
import { randomSeed, renderFair, rotate, verify } from "./fairness.ts"
import { loadHistory, renderHistory } from "./history.ts"
import { setLanguage, t, translatePage } from "./i18n/index.ts"
import { beginHistory, loadGames, showEntry, toLobby } from "./lobby.ts"
import { digitsOf } from "./money.ts"
import { clearAlert, exitLink, fatal } from "./notice.ts"
import { gameName } from "./outcomes.ts"
import { closePanel, nonOpen, showPanel, togglePanel } from "./panels.ts"
import { freeGrantsOf } from "./free.ts"
import { openGame, play } from "./play.ts"
import { realityOpen, setupReality, startClock } from "./reality.ts"
import { savedLaunch, savedSession, saveSession } from "./resume.ts"
import { setupSound } from "./sound.ts"
import { setupStake } from "./stake.ts"
import { data, S } from "./state.ts"
import type { Launch, Opened } from "./types.ts"
import { brand, setBalance } from "./wallet.ts"
import { cashier } from "./shop.ts"

/**
 * The player's page: it redeems the launch token once, shows the merchant's
 * lobby and branding, plays each game's rounds with the session token, keeps
 * this session's history and verifies rounds.
 */

const redeemFailed = (r: Reply<unknown>): void => {
  if (r.status === 401) {
    return /expired/i.test(detailOf(r)) ? fatal(t("linkExpired"), t("linkExpiredText")) : fatal(t("linkInvalid"), t("openAgain"))
  }
  if (r.status === 409) return fatal(t("linkUsed"), t("TOKEN_ALREADY_USED"))
  if (r.status === 422) return fatal(t("cannotStart"), problem(r, t("PLAYER_REJECTED")))
  if (r.status === 400) return fatal(t("cannotStart"), problem(r, t("linkNotValid")))
  fatal(t("cannotStart"), problem(r, t("couldNotOpen")), r.status === 0 || r.status >= 429)
}

/** The launch's language, exit, reality check and shop; the page's text in that language. */
const applyLaunch = (page: Launch | undefined): void => {
  setLanguage(page?.language ?? data["lang"])
  S.shop = page?.shop ?? null
  cashier(S.shop)
  // A shop's terminal has no casino page to go back to: no exit, and no lobby (one game per launch).
  S.exit = S.shop !== null ? "" : page?.lobbyUrl ?? data["exit"] ?? ""
  const every = page?.realityCheckMinutes
  S.reality = typeof every === "number" && Number.isInteger(every) && every >= 5 && every <= 120 ? every : 0
  translatePage()
  exitLink("exit")
  const game = data["game"]
  if (game !== undefined) S.names[game] = gameName(game, data["name"] ?? game)
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
  readonly page?: Launch | undefined
  readonly net?: string
  readonly startedAt?: number
  readonly freeRounds?: unknown
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
  S.net = BigInt(b.net ?? "0")
  S.startedAt = b.startedAt ?? Date.now()
  S.free = freeGrantsOf(b.freeRounds)
  applyLaunch(b.page)
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
  startClock()
  if (window.matchMedia("(min-width: 860px)").matches) showPanel("rules")
  if (b.session.lobby && S.shop === null) await loadGames()
  const game = b.game || b.session.gameId || (data["game"] ?? "")
  beginHistory(game)
  await openGame(game)
  showEntry()
  void loadHistory()
}

const start = async (): Promise<void> => {
  const token = data["token"] ?? ""
  const saved = savedSession()
  // A reload (the address no longer has the token), or the framing page reloaded with the link this tab redeemed.
  if (saved !== undefined && (token === "" || token === saved.launch)) return begin(saved)
  if (token === "") {
    // This tab's session was forgotten (the server no longer knew it): its launch's language and exit remain.
    applyLaunch(savedLaunch())
    return fatal(t("linkIncomplete"), t("openAgain"))
  }
  $("notice").hidden = true
  $("loading").hidden = false
  const r = await api<Opened>("POST", "/sessions", { token }, true)
  // A used (or since expired) link: framed by a casino's site whose page reloaded, the frame had no storage to
  // resume from; the cookie the redemption set, if this browser has it, resumes the session (CONTRACT §6).
  const again = r.status === 409 || (r.status === 401 && /expired/i.test(detailOf(r)))
  const opened = again ? await api<Opened>("POST", "/sessions/resume", { token }, true) : r
  $("loading").hidden = true
  if (opened.ok && opened.body?.session !== undefined) return begin({ ...opened.body, launch: token, page: opened.body.launch })
  if (again && opened.body?.code === "SESSION_ENDED") return fatal(t("sessionEnded"), t("SESSION_ENDED"))
  redeemFailed(again && (opened.status === 409 || opened.status === 401) ? r : opened)
}

applyLaunch(undefined)
// The token leaves the address; a reload keeps the entry's view (lobby or game).
history.replaceState(history.state, "", location.pathname)
setupReality()
setupCelebration()
$("play").addEventListener("click", () => void play())
$("free").addEventListener("click", () => void play("free"))
$("to-lobby").addEventListener("click", toLobby)
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
  if (e.key !== "Escape" || realityOpen()) return
  if (hideCelebration()) return
  if ($("app").classList.contains("open")) closePanel()
})
window.matchMedia("(min-width: 860px)").addEventListener("change", (e) => {
  if (!e.matches) closePanel()
  else if (S.session !== null && nonOpen()) showPanel("rules")
})
void start()
