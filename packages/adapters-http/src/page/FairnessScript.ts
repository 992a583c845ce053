/**
 * The page script's fairness panel and round history: the current
 * commitment, a new client seed (which reveals the server seed used so far),
 * this session's rounds newest first, each expandable, and the verification
 * of a round in the browser: SHA-256 of the revealed seed against its hash,
 * then the draw recomputed with WebCrypto's HMAC-SHA256 and the documented
 * bytes-to-numbers method, compared with the round's outcome. Plain browser
 * JavaScript, joined by {@link pageScript}.
 */
export const fairnessScript = String.raw`
const enc = new TextEncoder()
const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("")
const sha256 = async (text) => hex(await crypto.subtle.digest("SHA-256", enc.encode(text)))
const drawsOf = async (serverSeed, clientSeed, nonce) => {
  const key = await crypto.subtle.importKey("raw", enc.encode(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  let block = 0
  let bytes = new Uint8Array(0)
  let at = 0
  const next = async () => {
    if (at + 4 > bytes.length) {
      const message = clientSeed + ":" + nonce + (block === 0 ? "" : ":" + block)
      bytes = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(message)))
      block++
      at = 0
    }
    const x = ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3]
    at += 4
    return x
  }
  const int = async (n) => {
    const limit = Math.floor(4294967296 / n) * n
    for (;;) { const x = await next(); if (x < limit) return x % n }
  }
  const distinct = async (n, k) => {
    const a = Array.from({ length: n }, (_, i) => i)
    const out = []
    for (let j = 0; j < k; j++) {
      const r = j + await int(n - j)
      const t = a[j]; a[j] = a[r]; a[r] = t
      out.push(a[j] + 1)
    }
    return out
  }
  return { int, distinct }
}
const RECOMPUTE = {
  "odd-even": async (d) => ({ number: await d.int(36) + 1 }),
  "single": async (d) => ({ number: await d.int(36) + 1 }),
  "under-over": async (d) => ({ dice: [await d.int(6) + 1, await d.int(6) + 1] }),
  "color-game": async (d) => ({ dice: [COLORS[await d.int(6)], COLORS[await d.int(6)], COLORS[await d.int(6)]] }),
  "lotto": async (d) => ({ drawn: await d.distinct(49, 6) }),
  "mega-ten": async (d) => ({ drawn: await d.distinct(80, 20) })
}
const shown = (o) => Object.values(o).map((v) => (Array.isArray(v) ? v.join(" ") : String(v))).join(" ")

const renderFair = () => {
  const f = S.fair || {}
  $("f-hash").textContent = f.serverSeedHash || ""
  $("f-client").textContent = f.clientSeed || ""
  $("f-nonce").textContent = f.nonce == null ? "" : String(f.nonce)
}
const seedOf = (rd) => (rd.fairness ? rd.fairness.serverSeed || S.seeds[rd.fairness.serverSeedHash] || "" : "")
const rotate = async (e) => {
  e.preventDefault()
  if (S.busy) return
  const input = $("seed-input")
  const msg = $("seed-msg")
  const seed = input.value.trim() || randomSeed()
  if (!/^[!-9;-~]{1,64}$/.test(seed)) {
    msg.className = "bad"
    msg.textContent = "A client seed is 1 to 64 printable characters, without spaces or ':'."
    return
  }
  S.busy = true
  const r = await call("PUT", "/fairness", { clientSeed: seed })
  S.busy = false
  if (r.status === 401) return
  if (!r.ok || !r.body || !r.body.current) {
    msg.className = "bad"
    msg.textContent = problem(r, "The seeds could not be changed. Please try again.")
    return
  }
  S.fair = r.body.current
  const p = r.body.previous
  if (p && typeof p.serverSeed === "string") {
    S.seeds[p.serverSeedHash] = p.serverSeed
    $("v-seed").textContent = p.serverSeed
    $("v-hash").textContent = p.serverSeedHash
    $("v-client").textContent = p.clientSeed
    $("v-nonces").textContent = typeof p.nonces === "number" ? p.nonces + (p.nonces === 1 ? " round (nonce 0)" : " rounds (nonces 0–" + (p.nonces - 1) + ")") : String(p.nonces)
    $("revealed").hidden = false
  }
  input.value = ""
  msg.className = ""
  msg.textContent = "New seeds in use from nonce " + S.fair.nonce + ". The previous server seed is revealed below: verify its rounds."
  renderFair()
  renderHistory()
}
const randomSeed = () => hex(crypto.getRandomValues(new Uint8Array(10)))

const verify = async () => {
  const id = $("verify-round").value
  const out = $("verify-out")
  out.className = ""
  if (!id) { out.textContent = "Play a round first."; return }
  out.textContent = "Checking…"
  let rd = S.rounds.find((x) => x.roundId === id)
  const r = await call("GET", "/rounds/" + encodeURIComponent(id))
  if (r.status === 401) return
  if (r.ok && r.body) rd = r.body
  else if (!rd) { out.className = "bad"; out.textContent = problem(r, "This round could not be read."); return }
  const f = rd.fairness || {}
  const seed = seedOf(rd)
  if (!seed) {
    out.textContent = "The server seed of this round is still secret. Change the client seed to reveal it, then verify."
    return
  }
  if (!window.crypto || !crypto.subtle) { out.textContent = "This browser cannot compute HMAC-SHA256 here (the page needs https)."; return }
  const calc = RECOMPUTE[rd.gameId]
  if (!calc) { out.textContent = "This page does not know how " + rd.gameId + " draws."; return }
  const hashOk = (await sha256(seed)) === f.serverSeedHash
  const got = await calc(await drawsOf(seed, f.clientSeed, f.nonce))
  const o = rd.outcome || {}
  const same = Object.keys(got).every((k) => JSON.stringify(got[k]) === JSON.stringify(o[k]))
  S.checked[id] = hashOk && same
  out.className = hashOk && same ? "ok" : "bad"
  out.textContent = !hashOk
    ? "✗ mismatch: the revealed server seed does not hash to the committed " + String(f.serverSeedHash).slice(0, 16) + "…"
    : same
      ? "✓ verified: the seed matches its hash, and HMAC-SHA256 of nonce " + f.nonce + " draws " + shown(got) + ", as the round showed."
      : "✗ mismatch: HMAC-SHA256 of nonce " + f.nonce + " draws " + shown(got) + ", but the round showed " + shown(o) + "."
  renderHistory()
}

const selectionText = (s) => (Array.isArray(s) ? s.join(", ") : typeof s === "string" ? cap1(s) : String(s))
const open = new Set()
const renderHistory = () => {
  const list = $("rounds")
  $("h-empty").hidden = S.rounds.length > 0
  list.replaceChildren(...S.rounds.map((rd, i) => {
    const f = rd.fairness || {}
    const paid = rd.payout == null ? null : toMinor(rd.payout)
    const won = paid != null && paid > 0n
    const li = el("li", won ? "win" : "")
    li.dataset.roundId = rd.roundId
    const head = btn("rhead")
    const body = el("div", "rbody")
    body.id = "round-" + i
    body.hidden = !open.has(rd.roundId)
    head.setAttribute("aria-expanded", String(open.has(rd.roundId)))
    head.setAttribute("aria-controls", body.id)
    head.append(
      el("span", "", S.names[rd.gameId] || rd.gameId),
      el("span", "amt", rd.status && rd.status !== "settled" ? cap1(rd.status) : won ? "+" + amount(rd.payout) : "No win"),
      el("small", "", (rd.outcome && rd.outcome.summary) || ""),
      el("small", "", "Stake " + amount(rd.stake) + (S.checked[rd.roundId] ? " · verified" : ""))
    )
    head.addEventListener("click", () => {
      if (open.has(rd.roundId)) open.delete(rd.roundId)
      else open.add(rd.roundId)
      body.hidden = !open.has(rd.roundId)
      head.setAttribute("aria-expanded", String(open.has(rd.roundId)))
    })
    const dl = el("dl")
    const row = (k, v, code) => { const dd = el("dd"); dd.append(code ? el("code", "", v) : v); dl.append(el("dt", "", k), dd) }
    row("Round", rd.roundId, true)
    if (rd.createdAt) row("Time", new Date(rd.createdAt).toLocaleString())
    row("Your pick", selectionText(rd.selection))
    if (rd.payout != null) row("Paid", amount(rd.payout))
    row("Nonce", String(f.nonce), true)
    row("Client seed", f.clientSeed || "", true)
    row("Server seed hash", f.serverSeedHash || "", true)
    row("Server seed", seedOf(rd) || "secret until you change the client seed", !!seedOf(rd))
    const check = btn("", "Verify this round", () => { showPanel("fair"); $("verify-round").value = rd.roundId; verify() })
    body.append(dl, check)
    li.append(head, body)
    return li
  }))
  const pick = $("verify-round")
  const current = pick.value
  const checkable = S.rounds.filter((rd) => rd.fairness && rd.outcome)
  pick.replaceChildren(...checkable.map((rd) => {
    const o = el("option", "", "Nonce " + (rd.fairness ? rd.fairness.nonce : "?") + " · " + (S.names[rd.gameId] || rd.gameId) + " · " +
      ((rd.outcome && rd.outcome.summary) || "") + (seedOf(rd) ? " (seed revealed)" : ""))
    o.value = rd.roundId
    return o
  }))
  const best = checkable.find((rd) => rd.roundId === current) || checkable.find((rd) => seedOf(rd)) || checkable[0]
  if (best) pick.value = best.roundId
}
const addRound = (rd) => {
  S.rounds = [rd, ...S.rounds.filter((x) => x.roundId !== rd.roundId)].slice(0, 100)
  renderHistory()
}
const loadHistory = async () => {
  const r = await call("GET", "/rounds?limit=20")
  if (!r.ok || !r.body || !Array.isArray(r.body.data)) return
  const known = new Set(S.rounds.map((x) => x.roundId))
  S.rounds = [...S.rounds, ...r.body.data.filter((x) => !known.has(x.roundId))]
  renderHistory()
}
`
