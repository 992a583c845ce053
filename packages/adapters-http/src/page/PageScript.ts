import { fairnessScript } from "./FairnessScript.ts"
import { gameScript } from "./GameScript.ts"
import { sessionScript } from "./SessionScript.ts"

const flowScript = String.raw`
const showPanel = (name) => {
  for (const p of ["rules", "history", "fair"]) {
    $("p-" + p).hidden = p !== name
    pressed($("tab-" + p), p === name)
  }
  $("app").classList.add("open")
}
const togglePanel = (name) => {
  const wide = window.matchMedia("(min-width: 860px)").matches
  if (!wide && $("app").classList.contains("open") && !$("p-" + name).hidden) closePanel()
  else showPanel(name)
}
const closePanel = () => {
  $("app").classList.remove("open")
  if (!window.matchMedia("(min-width: 860px)").matches) for (const p of ["rules", "history", "fair"]) pressed($("tab-" + p), false)
}

const renderRules = () => {
  const rules = S.rules[S.game] || {}
  $("r-name").textContent = rules.name || S.names[S.game] || ""
  $("r-desc").textContent = rules.description || ""
  $("r-rtp").textContent = rules.rtp ? rules.rtp + " %" : "–"
  $("rtp").textContent = rules.rtp ? "RTP " + rules.rtp + " %" : ""
  renderPays()
}
const renderPays = () => {
  const rules = S.rules[S.game] || {}
  let lines = Array.isArray(rules.payouts) ? rules.payouts : []
  let caption = "Pay table"
  if (lines.some((p) => typeof p.picks === "number")) {
    const all = [...new Set(lines.map((p) => p.picks))].sort((a, b) => a - b)
    const k = all.includes(S.picks.length) ? S.picks.length : all[all.length - 1]
    lines = lines.filter((p) => p.picks === k)
    caption = "Pays with " + k + " number" + (k === 1 ? "" : "s") + " picked"
  }
  $("r-caption").textContent = caption
  $("r-pays").tBodies[0].replaceChildren(...lines.map((p) => {
    const tr = el("tr")
    tr.append(el("td", "", p.condition), el("td", "", times(p.multiplier)))
    return tr
  }))
  const strip = $("paystrip")
  if (strip) {
    strip.replaceChildren(...lines.filter((p) => Number(p.multiplier) > 0).map((p) =>
      el("span", "", (typeof p.hits === "number" ? p.hits + " hit" + (p.hits === 1 ? "" : "s") : p.condition) + " " + times(p.multiplier))))
  }
}
const selectionChanged = () => {
  const ready = viewOf(S.game).selection() != null
  $("play").setAttribute("aria-disabled", String(!ready || S.busy))
  renderPays()
}

const showLobby = () => {
  if (S.busy) return
  $("game").hidden = true
  $("lobby").hidden = false
  $("to-lobby").hidden = true
  $("title").textContent = "Games"
  $("rtp").textContent = ""
  for (const t of $("tiles").querySelectorAll(".tile")) t.setAttribute("aria-current", String(t.dataset.game === S.game))
  const current = $("tiles").querySelector("[aria-current=true]") || $("tiles").querySelector(".tile")
  if (current) current.focus()
}
const loadGames = async () => {
  const r = await call("GET", "/games?limit=100")
  if (r.status === 401) return
  if (!r.ok || !r.body || !Array.isArray(r.body.data)) { showAlert(problem(r, "The list of games could not be loaded.")); return }
  S.games = r.body.data
  $("tiles").replaceChildren(...S.games.map((g) => {
    S.names[g.id] = g.name
    const li = el("li")
    const b = btn("tile", null, () => openGame(g.id))
    b.dataset.game = g.id
    const img = el("img")
    img.alt = ""
    img.loading = "lazy"
    img.width = 320
    img.height = 200
    if (typeof g.imageUrl === "string") img.src = g.imageUrl
    b.append(img, el("span", "", g.name), el("small", "", g.rtp ? "RTP " + g.rtp + " %" : ""))
    li.append(b)
    return li
  }))
}

const openGame = async (id) => {
  if (S.busy) return
  S.busy = true
  spinStop()
  clearAlert()
  S.game = id
  S.sel = null
  S.picks = []
  $("title").textContent = S.names[id] || id
  $("lobby").hidden = true
  $("game").hidden = false
  $("to-lobby").hidden = !S.session.lobby
  $("result").textContent = ""
  $("result").className = "result"
  if (!S.rules[id]) {
    const r = await call("GET", "/games/" + encodeURIComponent(id) + "/rules")
    if (r.status === 401) return
    if (r.ok && r.body) S.rules[id] = r.body
    else showAlert(problem(r, "The rules of this game could not be loaded."))
  }
  const rules = S.rules[id] || {}
  if (rules.name) S.names[id] = rules.name
  $("title").textContent = S.names[id] || id
  document.title = S.names[id] || id
  const view = viewOf(id)
  $("controls").replaceChildren()
  $("controls").className = "controls"
  $("game").classList.toggle("nums", !!view.most)
  $("game").classList.toggle("one", view.most === 1)
  $("stage").className = "stage"
  view.controls($("controls"))
  view.stage.idle($("stage"))
  S.busy = false
  renderRules()
  selectionChanged()
}

const play = async () => {
  if (S.busy) return
  const view = viewOf(S.game)
  const selection = view.selection()
  if (selection == null) { showAlert(view.most ? "Pick your numbers first." : "Make your pick first."); return }
  const stake = readStake()
  if (stake == null) return
  clearAlert()
  S.busy = true
  $("play").classList.add("busy")
  selectionChanged()
  $("result").className = "result"
  $("result").textContent = "Drawing…"
  view.stage.spin($("stage"))
  const body = { stake: plain(stake), selection }
  if (S.game !== S.session.gameId) body.gameId = S.game
  const r = await call("POST", "/rounds", body)
  const done = () => { S.busy = false; $("play").classList.remove("busy"); selectionChanged() }
  if (r.status === 401) return
  if (!r.ok || !r.body || !r.body.outcome) {
    spinStop()
    view.stage.idle($("stage"))
    $("stage").className = "stage"
    $("result").textContent = ""
    done()
    showAlert(problem(r, "The round could not be played. Please try again."))
    return
  }
  const round = r.body
  await view.stage.reveal($("stage"), round.outcome, selection)
  const paid = toMinor(round.payout)
  const won = paid != null ? paid > 0n : Number(round.payout) > 0
  const line = $("result")
  line.className = "result " + (won ? "win" : "loss")
  line.replaceChildren(el("span", "", round.outcome.summary || ""), el("b", "", won ? "You win " + amount(round.payout) + "!" : "No win this time"))
  if (won && typeof S.settings.cupImageUrl === "string") {
    const img = el("img")
    img.id = "cup"
    img.alt = "Winner's cup"
    img.src = S.settings.cupImageUrl
    line.lastChild.before(img)
  }
  setBalance(round.balance)
  if (round.fairness) {
    S.fair = { serverSeedHash: round.fairness.serverSeedHash, clientSeed: round.fairness.clientSeed, nonce: round.fairness.nonce + 1 }
    renderFair()
  }
  addRound({
    roundId: round.roundId, gameId: round.gameId || S.game, status: "settled", stake: plain(stake), selection,
    outcome: round.outcome, payout: round.payout, createdAt: new Date().toISOString(), fairness: round.fairness
  })
  done()
}

const redeemFailed = (r) => {
  if (r.status === 401) {
    return /expired/i.test(detailOf(r))
      ? fatal("This link has expired", "Game links work for a short time only. Open the game again from the operator's site.")
      : fatal("This link is not valid", "Open the game again from the operator's site.")
  }
  if (r.status === 409) return fatal("This link was already used", MSG.TOKEN_ALREADY_USED)
  if (r.status === 422) return fatal("The game cannot start", problem(r, MSG.PLAYER_REJECTED))
  if (r.status === 400) return fatal("The game cannot start", problem(r, "This game link is not valid."))
  fatal("The game cannot start", problem(r, "The game could not be opened. Please try again."), r.status === 0 || r.status >= 429)
}
const start = async () => {
  if (!data.token) return fatal("This link is incomplete", "Open the game again from the operator's site.")
  $("notice").hidden = true
  $("loading").hidden = false
  const r = await api("POST", "/sessions", { token: data.token })
  $("loading").hidden = true
  if (r.status !== 201 || !r.body || !r.body.session) return redeemFailed(r)
  const b = r.body
  S.busy = false
  S.token = b.sessionToken
  S.session = b.session
  S.settings = b.settings || {}
  S.currency = b.session.currency
  S.digits = digitsOf(b.balance, S.currency)
  S.fair = b.fairness || null
  brand(S.settings)
  setBalance(b.balance)
  $("mode").hidden = b.session.mode !== "demo"
  $("tabs").hidden = false
  setupStake()
  renderFair()
  renderHistory()
  if (window.matchMedia("(min-width: 860px)").matches) showPanel("rules")
  if (b.session.lobby) await loadGames()
  await openGame(b.session.gameId || data.game)
  loadHistory()
}

history.replaceState(null, "", location.pathname)
$("play").addEventListener("click", play)
$("to-lobby").addEventListener("click", showLobby)
$("tab-rules").addEventListener("click", () => togglePanel("rules"))
$("tab-history").addEventListener("click", () => togglePanel("history"))
$("tab-fair").addEventListener("click", () => togglePanel("fair"))
$("close-side").addEventListener("click", closePanel)
$("alert-close").addEventListener("click", clearAlert)
$("seed-form").addEventListener("submit", rotate)
$("seed-random").addEventListener("click", () => { $("seed-input").value = randomSeed() })
$("verify").addEventListener("click", verify)
$("retry").addEventListener("click", start)
document.addEventListener("keydown", (e) => { if (e.key === "Escape" && $("app").classList.contains("open")) closePanel() })
window.matchMedia("(min-width: 860px)").addEventListener("change", (e) => {
  if (!e.matches) closePanel()
  else if (S.session && ["rules", "history", "fair"].every((p) => $("p-" + p).hidden)) showPanel("rules")
})
start()
`

/**
 * The game page's inline script (no external code): it redeems the launch
 * token once, shows the merchant's lobby and branding, plays each game's
 * rounds with the session token, keeps this session's history and verifies
 * rounds. Everything shown is set with `textContent`, never parsed as HTML.
 */
export const pageScript = `(() => {
"use strict"
${sessionScript}
${gameScript}
${fairnessScript}
${flowScript}
})()`
