/**
 * The game page's inline script (no external code): it redeems the launch
 * token once, applies the merchant's branding, and plays odd-even rounds with
 * the session token. Everything shown is set with `textContent`, never HTML.
 */
export const pageScript = String.raw`(() => {
  "use strict"
  const data = document.body.dataset
  const $ = (id) => document.getElementById(id)
  const api = "/api/v1.1/game-api"
  let session = ""
  let hideBalance = true
  const say = (text, kind) => { const m = $("message"); m.textContent = text; m.className = kind || "" }
  const fatal = (text) => { say(text, "error"); $("game").hidden = true }
  const setBalance = (b, cur) => { if (!hideBalance) { $("balance").textContent = b + " " + cur; $("wallet").hidden = false } }
  const post = async (path, body, token) => {
    const headers = { "content-type": "application/json" }
    if (token) headers.authorization = "Bearer " + token
    try {
      const r = await fetch(api + path, { method: "POST", headers, body: JSON.stringify(body), credentials: "omit" })
      let json = null
      try { json = await r.json() } catch (_) { json = null }
      return { status: r.status, body: json }
    } catch (_) {
      return { status: 0, body: null }
    }
  }
  const detail = (r, fallback) => (r.body && typeof r.body.detail === "string" ? r.body.detail : fallback)
  const brand = (s) => {
    const logo = $("logo")
    if (typeof s.logo1xUrl === "string") {
      logo.src = s.logo1xUrl
      if (typeof s.logo2xUrl === "string") logo.srcset = s.logo1xUrl + " 1x, " + s.logo2xUrl + " 2x"
      logo.hidden = false
    }
    if (typeof s.cupImageUrl === "string") $("cup").src = s.cupImageUrl
    if (typeof s.fontFamilyUrl === "string" && /\.(woff2?|ttf|otf)([?#].*)?$/i.test(s.fontFamilyUrl) && window.FontFace) {
      new FontFace("MerchantFont", "url(" + JSON.stringify(s.fontFamilyUrl) + ")").load()
        .then((f) => { document.fonts.add(f); document.body.style.fontFamily = "MerchantFont, system-ui, sans-serif" })
        .catch(() => {})
    }
    if (typeof s.minimumStake === "number") $("stake").min = String(s.minimumStake)
    if (typeof s.maximumStake === "number") $("stake").max = String(s.maximumStake)
  }
  const play = async (selection) => {
    const stake = $("stake").value.trim()
    if (!/^\d+(\.\d+)?$/.test(stake)) return say("Enter a stake like 10 or 2.50.", "error")
    for (const b of document.querySelectorAll("button")) b.disabled = true
    say("Rolling…")
    const r = await post("/rounds", { stake, selection }, session)
    for (const b of document.querySelectorAll("button")) b.disabled = false
    if (r.status === 200) {
      const won = r.body.payout !== "0" && !/^0(\.0+)?$/.test(r.body.payout)
      $("drawn").textContent = r.body.outcome
      $("cup").hidden = !won || !$("cup").src
      say(won ? "You win " + r.body.payout + "!" : "No luck this time.", won ? "win" : "")
      setBalance(r.body.balance, data.currency)
    } else if (r.status === 401) {
      fatal("Your game session has expired. Open the game again from the operator's site.")
    } else {
      say(detail(r, "The round could not be played. Please try again."), "error")
    }
  }
  const start = async () => {
    if (data.playable !== "true") return fatal("This game is not playable yet.")
    if (!data.token) return fatal("This game link is incomplete. Open the game again from the operator's site.")
    history.replaceState(null, "", location.pathname)
    say("Opening the game…")
    const r = await post("/sessions", { token: data.token })
    if (r.status === 401) {
      return fatal(detail(r, "") === "launch link expired"
        ? "This game link has expired. Open the game again from the operator's site."
        : "This game link is not valid. Open the game again from the operator's site.")
    }
    if (r.status === 409) return fatal("This game link was already used. Open the game again from the operator's site.")
    if (r.status !== 201) return fatal(detail(r, "The game could not be opened. Please try again later."))
    session = r.body.sessionToken
    hideBalance = r.body.settings.hideBalance === true
    data.currency = r.body.session.currency
    brand(r.body.settings)
    setBalance(r.body.balance, data.currency)
    $("game").hidden = false
    say("Pick odd or even.")
  }
  $("odd").addEventListener("click", () => play("odd"))
  $("even").addEventListener("click", () => play("even"))
  start()
})()`
