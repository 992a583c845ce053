import { createHash, createHmac, randomBytes } from "node:crypto"
import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Webhook } from "standardwebhooks"
import { assert, describe, it } from "vitest"
import { call } from "@gateway/adapters-http/testing"
import { join } from "node:path"
import { launchChromium, resultsDir } from "./Browser.ts"
import { makeValidators, type OpenApiDocument } from "./Fuzz.ts"
import { eventually, playerSession, poll, walletAndGateway } from "./Wallet.ts"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"

/** Sessions idle out after 2 s here, so `session.ended` comes within a few seconds. */
const world = walletAndGateway(() => ({ status: 200 }), { GAME_SESSION_IDLE_SECONDS: "2" })
let n = 0
/** The link of a round whose session has ended (its seed revealed), for the browser test. */
let revealed = ""
const email = () => `callbacks${++n}@example.com`

interface Event {
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly raw: string
  readonly body: { readonly type: string; readonly data: Record<string, unknown> }
}
const events = (merchantId: number): ReadonlyArray<Event> =>
  world.wallet.received
    .filter((r) => r.url === "/callbacks")
    .map((r) => ({ headers: r.headers, raw: r.body, body: JSON.parse(r.body) }))
    .filter((e) => e.body.data["merchantId"] === merchantId)
const credits = (roundId: string) =>
  world.wallet.messages().filter((m) => m.body.type === "transaction.credit" && m.body.data.roundId === roundId)
const linkOf = (roundId: string): string => {
  const [credit] = credits(roundId)
  const url = (credit?.body.data as { roundDetailsUrl?: unknown } | undefined)?.roundDetailsUrl
  assert.isString(url)
  return String(url)
}

/** A merchant whose callbackUrl is the loopback operator's `/callbacks` (launching with `launchQuery`). */
const withCallbacks = async (launchQuery = "", settings: Record<string, unknown> = {}) => {
  const player = await playerSession(world.gw, world.wallet.url, email(), "real", launchQuery, settings)
  const set = await call(`${player.api}/merchants/${player.merchantId}/settings`, {
    method: "PUT", headers: player.admin, json: { callbackUrl: `${world.wallet.url}/callbacks` }
  })
  assert.strictEqual(set.status, 200, set.text)
  return player
}

describe("round links and operator callbacks (CONTRACT §10)", () => {
  it("a credit webhook carries a signed roundDetailsUrl: JSON for programs, a page for people, 404 when forged", async () => {
    const player = await playerSession(world.gw, world.wallet.url, email())
    const { sessionToken } = await player.newSession()
    const round = await player.bet(sessionToken, "10.00", "odd")
    assert.strictEqual(round.status, 200, round.text)
    await eventually(() => credits(round.body.roundId).length === 1)
    const link = new URL(linkOf(round.body.roundId))
    assert.strictEqual(link.origin, world.gw.url)

    const json = await call(link.href, { headers: { accept: "application/json" } })
    assert.strictEqual(json.status, 200, json.text)
    assert.strictEqual(json.body.roundId, round.body.roundId)
    assert.strictEqual(json.body.stake, "10.00")
    assert.strictEqual(json.body.payout, round.body.payout)
    assert.strictEqual(json.body.currency, "ETB")
    assert.strictEqual(json.body.selection, "odd")
    assert.deepStrictEqual(json.body.outcome, round.body.outcome)
    assert.strictEqual(json.body.fairness.serverSeedHash, round.body.fairness.serverSeedHash)
    assert.isUndefined(json.body.fairness.serverSeed, "the seed stays secret while the session lives")

    const page = await fetch(link)
    assert.strictEqual(page.status, 200)
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/)
    assert.notMatch(page.headers.get("content-security-policy") ?? "", /unsafe-inline/)
    const html = await page.text()
    assert.include(html, round.body.roundId)
    assert.include(html, `${round.body.payout} ETB`)
    assert.notInclude(html, "<script>")

    const forged = new URL(link)
    const sig = forged.searchParams.get("sig") ?? ""
    forged.searchParams.set("sig", (sig[0] === "A" ? "B" : "A") + sig.slice(1))
    const other = new URL(link)
    other.pathname = other.pathname.replace(/[0-9a-f]$/, (c) => (c === "0" ? "1" : "0"))
    for (const bad of [forged, other, new URL(`${link.origin}${link.pathname}?sig=abc`)]) {
      const answer = await call(bad.href, { headers: { accept: "application/json" } })
      assert.strictEqual(answer.status, 404, bad.href)
      assert.strictEqual(answer.body.code, "ROUND_NOT_FOUND")
      assert.match(answer.headers.get("content-type") ?? "", /^application\/problem\+json/)
    }

    // A debit without an answer: the bet is rejected and its refund carries the round's link too.
    world.wallet.setReply((_r, body) => body.type === "transaction.debit" ? "hang" : { status: 200 })
    const lost = await player.bet(sessionToken, "3.00", "odd")
    world.wallet.setReply(() => ({ status: 200 }))
    assert.strictEqual(lost.status, 502, lost.text)
    const refunds = () => world.wallet.messages().filter((m) => m.body.type === "transaction.refund")
    await eventually(() => refunds().length === 1)
    const [refund] = refunds()
    const refunded = await call(String((refund?.body.data as { roundDetailsUrl?: string }).roundDetailsUrl), { headers: { accept: "application/json" } })
    assert.strictEqual(refunded.status, 200, refunded.text)
    assert.deepInclude(refunded.body, { roundId: refund?.body.data.roundId, status: "failed", stake: "3.00" })

    const range = `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}`
    const listed = await call(`${player.api}/rounds?${range}&limit=5`, { headers: { "sv-api-key": player.key } })
    assert.strictEqual(listed.status, 200, listed.text)
    const listedRound = listed.body.data.find((r: { roundId: string }) => r.roundId === round.body.roundId)
    assert.strictEqual(listedRound?.roundDetailsUrl, link.href)
  })

  it("setting ROUND_LINK_KEY later keeps every link already sent: the database's key still verifies, the new key signs", async () => {
    const scope = Effect.runSync(Scope.make())
    const running: Array<Gateway> = []
    try {
      const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedMigratedDatabaseUrl)))
      const env = {
        DATABASE_URL: databaseUrl,
        DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        AUTH_JWT_SECRET: randomBytes(32).toString("base64url"),
        ALLOW_PRIVATE_OPERATOR_URLS: "true",
        // The default 5 s time-out: a new process's first debit on a busy machine took over 500 ms once (502).
        WEBHOOK_RETRY_SCHEDULE: "0.2,0.2,0.2,0.2"
      }
      // Before: no ROUND_LINK_KEY, the link is signed with a key generated into the database.
      const before = await spawnGateway(env)
      running.push(before)
      const player = await playerSession(before, world.wallet.url, email())
      const { sessionToken } = await player.newSession()
      const old = await player.bet(sessionToken, "4.00", "odd")
      assert.strictEqual(old.status, 200, old.text)
      await eventually(() => credits(old.body.roundId).length === 1)
      const oldLink = new URL(linkOf(old.body.roundId))
      await before.stop()

      // After: ROUND_LINK_KEY is set (the same database).
      const key = randomBytes(32).toString("base64url")
      const after = await spawnGateway({ ...env, ROUND_LINK_KEY: key })
      running.push(after)
      const at = (link: URL) => `${after.url}${link.pathname}${link.search}`
      const opened = await call(at(oldLink), { headers: { accept: "application/json" } })
      assert.strictEqual(opened.status, 200, `a link sent before ROUND_LINK_KEY was set still opens: ${opened.text}`)
      assert.strictEqual(opened.body.roundId, old.body.roundId)

      const fresh = await call(`${after.url}/api/v1.1/game-api/rounds`, {
        method: "POST", headers: { authorization: `Bearer ${sessionToken}` }, json: { stake: "4.00", selection: "even" }
      })
      assert.strictEqual(fresh.status, 200, fresh.text)
      await eventually(() => credits(fresh.body.roundId).length === 1)
      const freshLink = new URL(linkOf(fresh.body.roundId))
      assert.strictEqual(
        freshLink.searchParams.get("sig"),
        createHmac("sha256", key).update(`round-details:${fresh.body.roundId}`).digest("base64url"),
        "new links are signed with ROUND_LINK_KEY"
      )
      const followed = await call(at(freshLink), { headers: { accept: "application/json" } })
      assert.strictEqual(followed.status, 200, followed.text)
      assert.strictEqual(followed.body.roundId, fresh.body.roundId)

      const forged = new URL(oldLink)
      forged.searchParams.set("sig", createHmac("sha256", "not-a-key-of-this-gateway").update(`round-details:${old.body.roundId}`).digest("base64url"))
      const refused = await call(at(forged), { headers: { accept: "application/json" } })
      assert.strictEqual(refused.status, 404, refused.text)
      assert.strictEqual(refused.body.code, "ROUND_NOT_FOUND")
    } finally {
      for (const g of running) await g.stop("SIGKILL")
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  })

  it("session.started, round.settled and session.ended reach the callbackUrl signed; none without a callbackUrl", async () => {
    const quiet = await playerSession(world.gw, world.wallet.url, email())
    const player = await withCallbacks()
    const { sessionToken } = await player.newSession()
    await eventually(() => events(player.merchantId).some((e) => e.body.type === "session.started"))
    const quietSession = await quiet.newSession()
    const rounds = [await player.bet(sessionToken, "10.00", "odd"), await player.bet(sessionToken, "5.00", "even")]
    assert.strictEqual((await quiet.bet(quietSession.sessionToken)).status, 200)
    for (const round of rounds) assert.strictEqual(round.status, 200, round.text)
    await eventually(() => events(player.merchantId).some((e) => e.body.type === "session.ended"), 20_000)

    const got = events(player.merchantId)
    for (const e of got) {
      new Webhook(player.encryptionKey).verify(e.raw, {
        "webhook-id": String(e.headers["webhook-id"]),
        "webhook-timestamp": String(e.headers["webhook-timestamp"]),
        "webhook-signature": String(e.headers["webhook-signature"])
      })
    }
    const doc: OpenApiDocument & { webhooks: Record<string, any> } = (await call(`${world.gw.url}/openapi.json`)).body
    const { errors } = makeValidators(doc)
    for (const e of got) {
      assert.deepStrictEqual(errors(doc.webhooks[e.body.type].post.requestBody.content["application/json"].schema, e.body), [], e.raw)
    }
    const callbacksListed = (answer: { body: { data?: ReadonlyArray<{ type: string; status: string }> } }) =>
      (answer.body.data ?? []).filter((d) => !d.type.startsWith("transaction.")).map((d) => `${d.type} ${d.status}`).sort()
    const listed = await poll(
      () => call(`${player.api}/merchants/${player.merchantId}/webhook-deliveries`, { headers: player.admin }),
      (answer) => answer.status === 200 && callbacksListed(answer).every((d) => d.endsWith(" delivered")),
      5_000
    ).catch(() => ({ body: {} }))
    assert.deepStrictEqual(
      callbacksListed(listed),
      ["round.settled delivered", "round.settled delivered", "session.ended delivered", "session.started delivered"],
      "listed and marked like wallet messages"
    )
    const started = got.find((e) => e.body.type === "session.started")
    assert.deepInclude(started?.body.data, { playerId: "p-1", gameId: "odd-even", currency: "ETB" })
    for (const e of got) {
      assert.notProperty(e.body.data, "shopId", "online play names no shop")
      assert.notProperty(e.body.data, "freeRound", "a paid round is not flagged free")
    }
    const settled = got.filter((e) => e.body.type === "round.settled")
    assert.deepStrictEqual(settled.map((e) => e.body.data["roundId"]).sort(), rounds.map((r) => r.body.roundId).sort())
    for (const round of rounds) {
      const e = settled.find((s) => s.body.data["roundId"] === round.body.roundId)
      assert.strictEqual(e?.body.data["payout"], round.body.payout)
      assert.strictEqual(e?.body.data["roundDetailsUrl"], linkOf(round.body.roundId))
    }
    const ended = got.filter((e) => e.body.type === "session.ended")
    assert.strictEqual(ended.length, 1)
    const wins = rounds.reduce((sum, r) => sum + Math.round(Number(r.body.payout) * 100), 0)
    assert.deepInclude(ended[0]?.body.data, { reason: "expired", rounds: 2, bets: "15.00", wins: (wins / 100).toFixed(2) })

    // The session has ended: its seed is revealed on the round's link, and it hashes to the commitment.
    const details = await call(linkOf(rounds[0]!.body.roundId), { headers: { accept: "application/json" } })
    const seed = String(details.body.fairness.serverSeed)
    revealed = linkOf(rounds[0]!.body.roundId)
    assert.strictEqual(createHash("sha256").update(seed).digest("hex"), rounds[0]!.body.fairness.serverSeedHash)

    assert.deepStrictEqual(events(quiet.merchantId), [])
    const deliveries = await call(`${quiet.api}/merchants/${quiet.merchantId}/webhook-deliveries`, { headers: quiet.admin })
    assert.strictEqual(deliveries.status, 200, deliveries.text)
    assert.deepStrictEqual(
      deliveries.body.data.filter((d: { type: string }) => !d.type.startsWith("transaction.")),
      [],
      "no callback is even queued for a merchant without a callbackUrl"
    )
  })

  it("a free round's credit carries its roundDetailsUrl (and its shop) beside its round.settled; a free loss sends round.settled and no credit (CONTRACT §13)", async () => {
    const player = await withCallbacks("&shopId=shop-1", { shopDetailsUrl: `${world.wallet.url}/shops` })
    const granted = await call(`${player.api}/free-rounds`, {
      method: "POST",
      headers: { "sv-api-key": player.key },
      json: { campaignId: "links", playerId: "p-1", gameId: "odd-even", rounds: 40, stake: "2.00", expiresAt: new Date(Date.now() + 86_400_000).toISOString() }
    })
    assert.strictEqual(granted.status, 201, granted.text)
    const { sessionToken } = await player.newSession()
    const played: Array<{ roundId: string; payout: string }> = []
    // Until one round won and one lost (40 rounds at even odds: never both of one kind in practice).
    while (played.length < 40 && !(played.some((r) => r.payout !== "0.00") && played.some((r) => r.payout === "0.00"))) {
      const round = await call(`${world.gw.url}/api/v1.1/game-api/rounds`, {
        method: "POST", headers: { authorization: `Bearer ${sessionToken}` }, json: { selection: "odd", freeRound: true }
      })
      assert.strictEqual(round.status, 200, round.text)
      played.push(round.body)
    }
    const won = played.find((r) => r.payout !== "0.00")
    const lost = played.find((r) => r.payout === "0.00")
    assert.isDefined(won)
    assert.isDefined(lost)
    const settledOf = (roundId: string) =>
      events(player.merchantId).filter((e) => e.body.type === "round.settled" && e.body.data["roundId"] === roundId)
    await eventually(() => played.every((r) => settledOf(r.roundId).length === 1))

    const verify = (raw: string, headers: Event["headers"]) =>
      new Webhook(player.encryptionKey).verify(raw, {
        "webhook-id": String(headers["webhook-id"]),
        "webhook-timestamp": String(headers["webhook-timestamp"]),
        "webhook-signature": String(headers["webhook-signature"])
      })
    const [credit] = world.wallet.received.filter((r) => r.url === "/wallet" && JSON.parse(r.body).data.roundId === won!.roundId)
    assert.isDefined(credit, "the free win's credit arrived")
    const creditData = (verify(credit!.body, credit!.headers) as { data: Record<string, unknown> }).data
    assert.strictEqual(creditData["amount"], won!.payout)
    assert.notProperty(creditData, "refTransactionId")
    assert.deepStrictEqual(creditData["freeRound"], { campaignId: "links", grantId: granted.body.id })
    assert.strictEqual(creditData["shopId"], "shop-1", "a shop session's free win names the shop, as its other messages do")
    const wonSettled = settledOf(won!.roundId)[0]!
    verify(wonSettled.raw, wonSettled.headers)
    assert.strictEqual(creditData["roundDetailsUrl"], wonSettled.body.data["roundDetailsUrl"], "one link in the credit and the callback")
    assert.deepInclude(wonSettled.body.data, { stake: "2.00", payout: won!.payout, selection: "odd" })
    const grant = { campaignId: "links", grantId: granted.body.id }
    assert.deepStrictEqual(wonSettled.body.data["freeRound"], grant, "a free round's round.settled is flagged as its credit is")
    assert.strictEqual(wonSettled.body.data["shopId"], "shop-1", "a shop session's round.settled names the shop")

    assert.deepStrictEqual(credits(lost!.roundId), [], "a free loss sends no credit")
    const lostSettled = settledOf(lost!.roundId)[0]!
    verify(lostSettled.raw, lostSettled.headers)
    assert.deepInclude(lostSettled.body.data, { stake: "2.00", payout: "0.00", shopId: "shop-1" })
    assert.deepStrictEqual(lostSettled.body.data["freeRound"], grant, "a free loss's round.settled is flagged too")
    for (const [round, event] of [[won!, wonSettled], [lost!, lostSettled]] as const) {
      const details = await call(String(event.body.data["roundDetailsUrl"]), { headers: { accept: "application/json" } })
      assert.strictEqual(details.status, 200, details.text)
      assert.deepInclude(details.body, { roundId: round.roundId, stake: "2.00", payout: round.payout, status: "settled" })
    }

    // The session's end counts the free rounds and their wins, but no bet: nothing was debited.
    await eventually(() => events(player.merchantId).some((e) => e.body.type === "session.ended"), 20_000)
    const ended = events(player.merchantId).find((e) => e.body.type === "session.ended")
    const wins = played.reduce((sum, r) => sum + Math.round(Number(r.payout) * 100), 0)
    assert.deepInclude(ended?.body.data, { rounds: played.length, bets: "0.00", wins: (wins / 100).toFixed(2), shopId: "shop-1" })
    const started = events(player.merchantId).find((e) => e.body.type === "session.started")
    assert.strictEqual(started?.body.data["shopId"], "shop-1", "a shop session's session.started names the shop")
    // The shop's and the free round's fields are in the webhooks section's schemas.
    const doc: OpenApiDocument & { webhooks: Record<string, any> } = (await call(`${world.gw.url}/openapi.json`)).body
    const { errors } = makeValidators(doc)
    for (const e of [started!, ended!, wonSettled, lostSettled]) {
      assert.deepStrictEqual(errors(doc.webhooks[e.body.type].post.requestBody.content["application/json"].schema, e.body), [], e.raw)
    }
  })

  it("terminating a player's session (CONTRACT §12) sends a signed session.ended with reason terminated and its totals", async () => {
    const player = await withCallbacks()
    const { sessionToken } = await player.newSession("p-1", "to-terminate")
    const rounds = [await player.bet(sessionToken, "6.00", "odd"), await player.bet(sessionToken, "4.00", "even")]
    for (const round of rounds) assert.strictEqual(round.status, 200, round.text)
    // At once, well inside the 2 s idle time-out: without the terminate this session would end `expired`.
    const terminated = await call(`${player.api}/sessions/terminate`, {
      method: "POST", headers: { "sv-api-key": player.key }, json: { playerId: "p-1", sessionId: "to-terminate" }
    })
    assert.strictEqual(terminated.status, 200, terminated.text)
    assert.deepStrictEqual(terminated.body, { terminated: 1 })
    await eventually(() => events(player.merchantId).some((e) => e.body.type === "session.ended"), 20_000)
    const ended = events(player.merchantId).filter((e) => e.body.type === "session.ended")
    assert.strictEqual(ended.length, 1)
    const [e] = ended
    new Webhook(player.encryptionKey).verify(e!.raw, {
      "webhook-id": String(e!.headers["webhook-id"]),
      "webhook-timestamp": String(e!.headers["webhook-timestamp"]),
      "webhook-signature": String(e!.headers["webhook-signature"])
    })
    const wins = rounds.reduce((sum, r) => sum + Math.round(Number(r.body.payout) * 100), 0)
    assert.deepInclude(e!.body.data, {
      merchantId: player.merchantId,
      playerId: "p-1",
      sessionId: "to-terminate",
      reason: "terminated",
      rounds: 2,
      bets: "10.00",
      wins: (wins / 100).toFixed(2)
    })
    assert.strictEqual((await player.bet(sessionToken)).status, 401, "and the session is over")
  })

  it("a callback whose endpoint keeps failing ends in the failed list, and a redelivery delivers it", async () => {
    const player = await withCallbacks()
    const mine = (r: { url: string }, body: unknown) =>
      r.url === "/callbacks" && (body as { data?: { merchantId?: unknown } }).data?.merchantId === player.merchantId
    world.wallet.setReply((r, body) => mine(r, body) ? { status: 503 } : { status: 200 })
    try {
      await player.newSession()
      const deliveries = `${player.api}/merchants/${player.merchantId}/webhook-deliveries`
      interface Listed { readonly id: string; readonly type: string; readonly attempts: number; readonly lastStatus: number }
      const startedFailed = (answer: { body?: { data?: ReadonlyArray<Listed> } }) =>
        (answer.body?.data ?? []).filter((d) => d.type === "session.started")
      const failed = await poll(() => call(`${deliveries}?status=failed`, { headers: player.admin }), (a) => startedFailed(a).length === 1)
      const [entry] = startedFailed(failed)
      assert.strictEqual(entry?.attempts, 5, "the whole retry schedule was spent")
      assert.strictEqual(entry?.lastStatus, 503)
      const tries = () => world.wallet.received.filter((r) => r.url === "/callbacks" && r.headers["webhook-id"] === entry!.id)
      assert.strictEqual(tries().length, 5)

      world.wallet.setReply(() => ({ status: 200 }))
      const redeliver = await call(`${deliveries}/${entry!.id}/redeliver`, { method: "POST", headers: player.admin })
      assert.strictEqual(redeliver.status, 202, redeliver.text)
      await eventually(() => tries().length === 6)
      const last = tries()[5]!
      const body = new Webhook(player.encryptionKey).verify(last.body, {
        "webhook-id": String(last.headers["webhook-id"]),
        "webhook-timestamp": String(last.headers["webhook-timestamp"]),
        "webhook-signature": String(last.headers["webhook-signature"])
      }) as { type: string }
      assert.strictEqual(body.type, "session.started")
      const listed = await poll(
        () => call(deliveries, { headers: player.admin }),
        (a) => (a.body?.data ?? []).some((d: { id: string; status: string }) => d.id === entry!.id && d.status === "delivered")
      )
      assert.strictEqual(listed.status, 200)
      const after = await call(`${deliveries}?status=failed`, { headers: player.admin })
      assert.deepStrictEqual(startedFailed(after), [])
    } finally {
      world.wallet.setReply(() => ({ status: 200 }))
    }
  })

  it("the round page verifies the revealed draw in Chromium with the game page's own code", async () => {
    assert.isNotEmpty(revealed, "the test above ended a session")
    const browser = await launchChromium({ width: 390, height: 844 })
    try {
      const page = await browser.context.newPage()
      const refused: Array<string> = []
      page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) refused.push(m.text()) })
      await page.goto(revealed)
      await page.getByRole("button", { name: "Verify in this browser" }).click()
      await page.locator("#verify-out.ok").waitFor({ timeout: 10_000 })
      assert.match(await page.locator("#verify-out").innerText(), /^✓ verified/)
      assert.deepStrictEqual(refused, [])
      await page.screenshot({ path: join(resultsDir, "round-page.png"), fullPage: true })
    } finally {
      await browser.close()
    }
  })
})
