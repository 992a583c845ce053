/**
 * The page script's foundation: DOM helpers, the state of the session, the
 * game API client (session bearer, problem+json errors turned into messages
 * for players), money in minor units (`BigInt`, never a float), branding and
 * the stake control. Plain browser JavaScript, joined by {@link pageScript}.
 */
export const sessionScript = String.raw`
const data = document.body.dataset
const $ = (id) => document.getElementById(id)
const el = (tag, cls, text) => {
  const e = document.createElement(tag)
  if (cls) e.className = cls
  if (text != null) e.textContent = String(text)
  return e
}
const btn = (cls, text, onClick) => {
  const b = el("button", cls, text)
  b.type = "button"
  if (onClick) b.addEventListener("click", onClick)
  return b
}
const pressed = (b, on) => b.setAttribute("aria-pressed", on ? "true" : "false")
const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, reduced() ? 0 : ms))
const S = {
  token: "", session: null, settings: {}, currency: "", digits: 2, balance: null, game: "", rules: {}, names: {},
  games: [], sel: null, picks: [], busy: false, fair: null, rounds: [], seeds: {}, checked: {}
}
S.names[data.game] = data.name

const MSG = {
  TOKEN_ALREADY_USED: "This game link has already been used. A link opens the game once: open the game again from the operator's site.",
  SESSION_EXPIRED: "Your game session has expired. Open the game again from the operator's site.",
  BET_REFUSED: "The operator's wallet refused this bet (not enough funds, or over a limit). Nothing was taken.",
  INSUFFICIENT_FUNDS: "Not enough balance for this stake. Lower the stake and try again.",
  WALLET_UNAVAILABLE: "The operator's wallet did not answer, so the bet was not placed. Anything taken is refunded automatically. Please try again.",
  PLAYER_REJECTED: "The operator did not accept your account for this game. Please contact the operator's support.",
  CURRENCY_MISMATCH: "This game cannot be played in your account's currency. Please contact the operator's support.",
  DETAILS_URL_NOT_SET: "The operator has not finished setting up real-money play. Please contact the operator's support.",
  OPERATOR_TIMEOUT: "The operator's system did not answer in time. Please try again.",
  OPERATOR_BAD_RESPONSE: "The operator's system is not answering properly. Please try again in a moment.",
  RATE_LIMITED: "Too many requests at once. Wait a moment and try again.",
  FORBIDDEN: "This game is not available in this session.",
  GAME_NOT_FOUND: "This game is not available.",
  GAME_RETIRED: "This game has been withdrawn and can no longer be played. Nothing was taken. Choose another game on the operator's site."
}
const codeOf = (r) => (r.body && typeof r.body.code === "string" ? r.body.code : "")
const detailOf = (r) => (r.body && typeof r.body.detail === "string" ? r.body.detail : "")
const problem = (r, fallback) => {
  if (r.status === 0) return "No connection to the game server. Check your connection and try again."
  const code = codeOf(r)
  if (r.status === 400) return detailOf(r) ? "Not accepted: " + detailOf(r) : fallback
  if (MSG[code]) return MSG[code]
  if (r.status === 422) return detailOf(r) || MSG.PLAYER_REJECTED
  if (r.status >= 500) return "The game server had a problem. Please try again in a moment."
  return detailOf(r) || fallback
}

const api = async (method, path, body) => {
  const headers = { accept: "application/json" }
  if (body !== undefined) headers["content-type"] = "application/json"
  if (S.token) headers.authorization = "Bearer " + S.token
  let res
  try {
    res = await fetch("/api/v1.1/game-api" + path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit", cache: "no-store"
    })
  } catch (_) {
    return { ok: false, status: 0, body: null }
  }
  let json = null
  try { json = await res.json() } catch (_) { json = null }
  return { ok: res.ok, status: res.status, body: json }
}
const call = async (method, path, body) => {
  const r = await api(method, path, body)
  if (r.status === 401) fatal("Session expired", MSG.SESSION_EXPIRED)
  return r
}

const fatal = (title, text, retry) => {
  S.busy = true
  clearInterval(spinTimer)
  for (const id of ["loading", "lobby", "game", "tabs", "to-lobby"]) $(id).hidden = true
  $("app").classList.remove("open")
  $("side").hidden = true
  $("notice-title").textContent = title
  $("notice-text").textContent = text
  $("retry").hidden = !retry
  $("notice").hidden = false
}
const showAlert = (text) => {
  $("alert-text").textContent = text
  $("alert").hidden = false
}
const clearAlert = () => { $("alert").hidden = true }

const unit = () => 10n ** BigInt(S.digits)
const toMinor = (text) => {
  const m = /^(\d{1,16})(?:\.(\d+))?$/.exec(String(text).trim())
  if (!m) return null
  const f = m[2] || ""
  if (f.replace(/0+$/, "").length > S.digits) return null
  return BigInt(m[1]) * unit() + BigInt((f + "0".repeat(S.digits)).slice(0, S.digits) || "0")
}
const plain = (v) => {
  const u = unit()
  const neg = v < 0n
  const a = neg ? -v : v
  return (neg ? "-" : "") + (a / u).toString() + (S.digits ? "." + (a % u).toString().padStart(S.digits, "0") : "")
}
const group = (text) => String(text).replace(/^-?\d+/, (w) => w.replace(/\B(?=(\d{3})+(?!\d))/g, ","))
const money = (v) => group(plain(v)) + " " + S.currency
const amount = (text) => { const v = toMinor(text); return v == null ? String(text) + " " + S.currency : money(v) }
const limit = (n) => (typeof n === "number" && isFinite(n) && n > 0 ? toMinor(n.toFixed(S.digits)) : null)
const digitsOf = (balance, currency) => {
  const m = /\.(\d+)$/.exec(String(balance || ""))
  if (m) return m[1].length
  if (/^\d+$/.test(String(balance || ""))) return 0
  try { return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits } catch (_) { return 2 }
}

const setBalance = (b) => {
  if (typeof b !== "string" || S.settings.hideBalance === true) return
  const changed = S.balance !== null && S.balance !== b
  S.balance = b
  $("balance").textContent = amount(b)
  $("wallet").hidden = false
  if (changed && !reduced()) {
    $("wallet").classList.remove("bump")
    void $("wallet").offsetWidth
    $("wallet").classList.add("bump")
  }
}

const brand = (s) => {
  const logo = $("logo")
  const one = typeof s.logo1xUrl === "string" ? s.logo1xUrl : typeof s.logo2xUrl === "string" ? s.logo2xUrl : ""
  if (one) {
    logo.src = one
    if (typeof s.logo1xUrl === "string" && typeof s.logo2xUrl === "string") logo.srcset = s.logo1xUrl + " 1x, " + s.logo2xUrl + " 2x"
    logo.hidden = false
  }
  const url = typeof s.fontFamilyUrl === "string" ? s.fontFamilyUrl : ""
  const useFont = (family) => document.documentElement.style.setProperty("--font", family + ", system-ui, sans-serif")
  if (/\.(woff2?|ttf|otf)([?#].*)?$/i.test(url) && window.FontFace) {
    new FontFace("MerchantFont", "url(" + JSON.stringify(url) + ")").load()
      .then((f) => { document.fonts.add(f); useFont("MerchantFont") })
      .catch(() => {})
  } else if (url) {
    let family = ""
    try { family = (new URL(url).searchParams.get("family") || "").split(":")[0] } catch (_) { family = "" }
    const link = document.createElement("link")
    link.rel = "stylesheet"
    link.href = url
    link.addEventListener("load", () => { if (/^[\w \-]{1,64}$/.test(family)) useFont(JSON.stringify(family)) })
    document.head.append(link)
  }
}

const limits = () => ({ min: limit(S.settings.minimumStake), max: limit(S.settings.maximumStake) })
const capStake = (v) => {
  const { min, max } = limits()
  if (max != null && v > max) v = max
  if (min != null && v < min) v = min
  return v < 1n ? 1n : v
}
const syncStake = () => {
  const v = toMinor($("stake").value)
  for (const b of $("presets").children) pressed(b, v != null && String(v) === b.dataset.v)
}
const setStake = (v) => { $("stake").value = plain(v); syncStake() }
const setupStake = () => {
  const { min, max } = limits()
  const base = min || unit()
  const values = [...new Set([1n, 2n, 5n, 10n].map((k) => capStake(base * k)))]
  $("presets").replaceChildren(...values.map((v) => {
    const b = btn("", group(plain(v)), () => setStake(v))
    b.dataset.v = String(v)
    b.setAttribute("aria-label", "Stake " + money(v))
    return b
  }))
  $("stake").inputMode = S.digits ? "decimal" : "numeric"
  $("cur").textContent = S.currency
  $("limits").textContent = (min != null ? "Smallest stake " + money(min) + ". " : "") + (max != null ? "Largest stake " + money(max) + "." : "")
  setStake(capStake(base))
  $("stake").addEventListener("input", syncStake)
  $("half").addEventListener("click", () => { const v = toMinor($("stake").value); setStake(capStake(v == null ? base : v / 2n)) })
  $("double").addEventListener("click", () => { const v = toMinor($("stake").value); setStake(capStake(v == null ? base : v * 2n)) })
}
const readStake = () => {
  const v = toMinor($("stake").value)
  const { min, max } = limits()
  if (v == null || v <= 0n) {
    showAlert(S.digits ? "Enter a stake like 1 or 2." + "5".padEnd(S.digits, "0") + " (at most " + S.digits + " decimals)." : "Enter a whole-number stake.")
    return null
  }
  if (min != null && v < min) { showAlert("The smallest stake is " + money(min) + "."); return null }
  if (max != null && v > max) { showAlert("The largest stake is " + money(max) + "."); return null }
  return v
}
`
