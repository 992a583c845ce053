import { Webhook } from "standardwebhooks"
import { assert, describe, it } from "vitest"
import { call } from "@gateway/adapters-http/testing"
import { eventually, playerSession, poll, shopAnswer, walletAndGateway } from "./Wallet.ts"

// Details calls time out after 1.5 s, so that the shop that never answers (CONTRACT §11) costs little.
const world = walletAndGateway(undefined, { DETAILS_TIMEOUT_MS: "1500" })
let n = 0
const email = () => `wallet${++n}@example.com`

const forRound = (roundId: string) => world.wallet.messages().filter((m) => m.body.data.roundId === roundId)

describe("game sessions and the seamless wallet, served by the real server process", () => {
  it("redeems a launch token once", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email())
    const { token, opened } = await player.newSession()
    assert.strictEqual(opened.status, 201, opened.text)
    assert.isString(opened.body.sessionToken)
    assert.strictEqual(opened.body.balance, "1000.00")
    const again = await call(`${world.gw.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
    assert.strictEqual(again.status, 409)
    assert.strictEqual(again.body.code, "TOKEN_ALREADY_USED")
    const forged = await call(`${world.gw.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token: token.slice(0, -4) + "AAAA" } })
    assert.strictEqual(forged.status, 401)
  })

  it("a bet sends a signed debit, then a credit whose refTransactionId is the debit", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email())
    const { sessionToken, opened } = await player.newSession()
    const round = await player.bet(sessionToken, "10.00", "odd")
    assert.strictEqual(round.status, 200, round.text)
    await eventually(() => forRound(round.body.roundId).length === 2)
    const [debit, credit] = forRound(round.body.roundId)
    assert.strictEqual(debit?.body.type, "transaction.debit")
    assert.strictEqual(debit?.body.data.amount, "10.00")
    assert.strictEqual(credit?.body.type, "transaction.credit")
    assert.strictEqual(credit?.body.data.refTransactionId, debit?.body.data.transactionId)
    assert.strictEqual(credit?.body.data.amount, round.body.payout)
    assert.isTrue(credit?.body.data.roundClosed)
    assert.strictEqual(credit?.headers["webhook-id"], credit?.body.data.transactionId)
    assert.strictEqual(opened.status, 201)
    const raw = world.wallet.received.filter((r) => r.url === "/wallet" && JSON.parse(r.body).data.roundId === round.body.roundId)
    assert.strictEqual(raw.length, 2)
    for (const r of raw) {
      new Webhook(player.encryptionKey).verify(r.body, {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"])
      })
    }
  })

  it("a debit accepted with a negative balance (an operator's credit line) keeps the round and reports balance + payout", async () => {
    for (const [balance, digits] of [["-5.00", 2], ["-0.50", 2], ["12.345", 3]] as const) {
      world.wallet.setReply((_r, body) => body.type === "transaction.debit" ? { status: 200, body: { balance } } : { status: 200 })
      const player = await playerSession(world.gw, world.wallet.url, email())
      const { sessionToken } = await player.newSession()
      const round = await player.bet(sessionToken, "10.00", "odd")
      assert.strictEqual(round.status, 200, round.text)
      const scale = 10 ** digits
      const expected = (Math.round(Number(balance) * scale) + Math.round(Number(round.body.payout) * scale)) / scale
      assert.strictEqual(Number(round.body.balance), expected, `${balance} + ${round.body.payout} → ${round.body.balance}`)
      assert.match(round.body.balance, new RegExp(`^-?\\d+\\.\\d{${digits}}$`))
      await eventually(() => forRound(round.body.roundId).some((m) => m.body.type === "transaction.credit"))
      assert.isFalse(forRound(round.body.roundId).some((m) => m.body.type === "transaction.refund"))
    }
  })

  it("a refused debit (402) rejects the bet and sends nothing more", async () => {
    world.wallet.setReply((_r, body) => body.type === "transaction.debit" ? { status: 402, body: { error: "insufficient funds" } } : { status: 200 })
    const player = await playerSession(world.gw, world.wallet.url, email())
    const { sessionToken } = await player.newSession()
    const before = world.wallet.messages().length
    const round = await player.bet(sessionToken)
    assert.strictEqual(round.status, 402, round.text)
    assert.strictEqual(round.body.code, "BET_REFUSED")
    await new Promise((r) => setTimeout(r, 1000))
    assert.strictEqual(world.wallet.messages().length, before + 1)
  })

  it("a timed-out debit rejects the bet and queues its refund", async () => {
    world.wallet.setReply((_r, body) => body.type === "transaction.debit" ? { status: 200, delayMs: 2000 } : { status: 200 })
    const player = await playerSession(world.gw, world.wallet.url, email())
    const { sessionToken } = await player.newSession()
    const before = world.wallet.messages().length
    const round = await player.bet(sessionToken)
    assert.strictEqual(round.status, 502, round.text)
    assert.strictEqual(round.body.code, "WALLET_UNAVAILABLE")
    await eventually(() => world.wallet.messages().slice(before).some((m) => m.body.type === "transaction.refund"))
    const sent = world.wallet.messages().slice(before)
    const debit = sent.find((m) => m.body.type === "transaction.debit")
    const refund = sent.find((m) => m.body.type === "transaction.refund")
    assert.strictEqual(refund?.body.data.refTransactionId, debit?.body.data.transactionId)
    assert.strictEqual(refund?.body.data.amount, "10.00")
    assert.isUndefined(sent.find((m) => m.body.type === "transaction.credit"))
  })

  it("a credit answered 500 is retried with the same webhook-id until 200, then never again", async () => {
    let failures = 2
    world.wallet.setReply((_r, body) =>
      body.type === "transaction.credit" && failures-- > 0 ? { status: 500 } : { status: 200 })
    const player = await playerSession(world.gw, world.wallet.url, email())
    const { sessionToken } = await player.newSession()
    const round = await player.bet(sessionToken)
    assert.strictEqual(round.status, 200, round.text)
    await eventually(() => forRound(round.body.roundId).filter((m) => m.body.type === "transaction.credit").length === 3)
    await new Promise((r) => setTimeout(r, 1500))
    const credits = forRound(round.body.roundId).filter((m) => m.body.type === "transaction.credit")
    assert.strictEqual(credits.length, 3)
    assert.strictEqual(new Set(credits.map((c) => String(c.headers["webhook-id"]))).size, 1)
    assert.strictEqual(new Set(credits.map((c) => JSON.stringify(c.body))).size, 1)
  })

  it("demo sessions use a virtual balance and call no webhook", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email(), "demo")
    const before = world.wallet.received.length
    const { sessionToken, opened } = await player.newSession()
    assert.strictEqual(opened.status, 201, opened.text)
    const round = await player.bet(sessionToken, "10.00", "even")
    assert.strictEqual(round.status, 200, round.text)
    const expected = 1000 - 10 + Number(round.body.payout)
    assert.strictEqual(Number(round.body.balance), expected)
    assert.strictEqual(world.wallet.received.length, before)
  })

  it("50 concurrent bets on one session give 50 debits and 50 credits with distinct ids", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email())
    const { sessionToken } = await player.newSession()
    const rounds = await Promise.all(Array.from({ length: 50 }, () => player.bet(sessionToken, "1.00")))
    for (const r of rounds) assert.strictEqual(r.status, 200, r.text)
    const ids = new Set(rounds.map((r) => String(r.body.roundId)))
    assert.strictEqual(ids.size, 50)
    await eventually(() => world.wallet.messages().filter((m) => ids.has(m.body.data.roundId)).length === 100)
    const mine = world.wallet.messages().filter((m) => ids.has(m.body.data.roundId))
    assert.strictEqual(mine.filter((m) => m.body.type === "transaction.debit").length, 50)
    assert.strictEqual(mine.filter((m) => m.body.type === "transaction.credit").length, 50)
    assert.strictEqual(new Set(mine.map((m) => m.body.data.transactionId)).size, 100)
  })

  it("rejects stakes outside the merchant's limits and unknown selections with 400 naming the field", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email())
    const { sessionToken } = await player.newSession()
    for (const [stake, selection, field] of [["0.50", "odd", "stake"], ["501", "odd", "stake"], ["1.234", "odd", "stake"],
      ["ten", "odd", "stake"], ["10", "seven", "selection"]] as const) {
      const r = await player.bet(sessionToken, stake, selection)
      assert.strictEqual(r.status, 400, `${stake} ${selection}: ${r.text}`)
      assert.strictEqual(r.body.code, "VALIDATION_FAILED")
      assert.include(r.body.detail, field)
    }
    const debitsBefore = world.wallet.messages().filter((m) => m.body.type === "transaction.debit").length
    const extra = await call(`${world.gw.url}/api/v1.1/game-api/rounds`, {
      method: "POST",
      headers: { authorization: `Bearer ${sessionToken}` },
      json: { stake: "10.00", selection: "odd", password: null }
    })
    assert.strictEqual(extra.status, 400, `an unknown body field is refused, as the document's additionalProperties says: ${extra.text}`)
    assert.strictEqual(extra.body.code, "VALIDATION_FAILED")
    assert.include(extra.body.detail, "password")
    assert.strictEqual(world.wallet.messages().filter((m) => m.body.type === "transaction.debit").length, debitsBefore, "no debit")
    const unknown = await player.bet("not-a-session")
    assert.strictEqual(unknown.status, 401)
  })

  it("a credit that exhausts its schedule is listed as failed, redelivered by an admin, and a ping verifies", async () => {
    world.wallet.setReply((_r, body) => body.type === "transaction.credit" ? { status: 503 } : { status: 200 })
    const player = await playerSession(world.gw, world.wallet.url, email())
    const { sessionToken } = await player.newSession()
    const round = await player.bet(sessionToken)
    assert.strictEqual(round.status, 200, round.text)
    const deliveries = `${player.api}/merchants/${player.merchantId}/webhook-deliveries`
    const failed = await poll(() => call(`${deliveries}?status=failed`, { headers: player.admin }), (a) => a.body?.data?.length === 1)
    const [entry] = failed.body.data
    assert.strictEqual(entry.type, "transaction.credit")
    assert.strictEqual(entry.attempts, 5)
    assert.strictEqual(entry.lastStatus, 503)
    world.wallet.setReply(() => ({ status: 200 }))
    const redeliver = await call(`${deliveries}/${entry.id}/redeliver`, { method: "POST", headers: player.admin })
    assert.strictEqual(redeliver.status, 202, redeliver.text)
    await eventually(() => world.wallet.messages().filter((m) => m.body.data.transactionId === entry.id).length === 6)
    const after = await call(`${deliveries}?status=failed`, { headers: player.admin })
    assert.deepStrictEqual(after.body.data, [])
    const unknown = await call(`${deliveries}/nope/redeliver`, { method: "POST", headers: player.admin })
    assert.strictEqual(unknown.status, 404)
    const ping = await call(`${player.api}/merchants/${player.merchantId}/webhook-test`, { method: "POST", headers: player.admin })
    assert.strictEqual(ping.status, 202, ping.text)
    await eventually(() => world.wallet.received.some((r) => r.headers["webhook-id"] === ping.body.deliveryId))
    const received = world.wallet.received.find((r) => r.headers["webhook-id"] === ping.body.deliveryId)
    assert.isDefined(received)
    if (received !== undefined) {
      assert.strictEqual(JSON.parse(received.body).type, "webhook.test")
      new Webhook(player.encryptionKey).verify(received.body, {
        "webhook-id": String(received.headers["webhook-id"]),
        "webhook-timestamp": String(received.headers["webhook-timestamp"]),
        "webhook-signature": String(received.headers["webhook-signature"])
      })
    }
  })

  it("the operator ends a player's sessions at once (CONTRACT §12): their next call is 401 SESSION_ENDED, others play on", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email())
    const first = await player.newSession()
    const second = await player.newSession("p-1", "another-tab")
    const other = await player.newSession("p-2")
    assert.strictEqual((await player.bet(first.sessionToken)).status, 200, "a round, so the session is in memory")
    const terminate = (json: unknown, key = player.key) =>
      call(`${player.api}/sessions/terminate`, { method: "POST", headers: { "sv-api-key": key }, json })

    for (const bad of [{}, { playerId: "" }, { playerId: "x".repeat(129) }, { playerId: 42 }, { playerId: "p-1", extra: 1 }]) {
      const refused = await terminate(bad)
      assert.strictEqual(refused.status, 400, JSON.stringify(bad))
      assert.strictEqual(refused.body.code, "VALIDATION_FAILED")
    }
    const issued = await call(`${player.api}/merchants/${player.merchantId}/api-keys`, {
      method: "POST", headers: player.admin, json: { prefix: "sv_test" }
    })
    const byTestKey = await terminate({ playerId: "p-1" }, String(issued.body.apiKey))
    assert.strictEqual(byTestKey.status, 403, byTestKey.text)
    assert.strictEqual(byTestKey.body.code, "FORBIDDEN")
    assert.strictEqual((await player.bet(second.sessionToken)).status, 200, "a test key ended nothing")

    const one = await terminate({ playerId: "p-1", sessionId: "another-tab" })
    assert.strictEqual(one.status, 200, one.text)
    assert.deepStrictEqual(one.body, { terminated: 1 })
    const ended = await player.bet(second.sessionToken)
    assert.strictEqual(ended.status, 401, ended.text)
    assert.strictEqual(ended.body.code, "SESSION_ENDED")
    assert.strictEqual((await player.bet(first.sessionToken)).status, 200, "the player's other operator session plays on")

    const before = world.wallet.messages().length
    const all = await terminate({ playerId: "p-1" })
    assert.deepStrictEqual(all.body, { terminated: 1 })
    // The browser that redeemed the link, resuming it (a casino's page reloaded around its frame), is told so.
    const resumed = await call(`${world.gw.url}/api/v1.1/game-api/sessions/resume`, {
      method: "POST",
      headers: { cookie: (first.opened.headers.get("set-cookie") ?? "").split(";")[0] ?? "" },
      json: { token: first.token }
    })
    assert.strictEqual(resumed.status, 401, resumed.text)
    assert.strictEqual(resumed.body.code, "SESSION_ENDED")
    const game = `${world.gw.url}/api/v1.1/game-api`
    const bearer = { authorization: `Bearer ${first.sessionToken}` }
    for (const answer of [
      await player.bet(first.sessionToken),
      await call(`${game}/rounds`, { headers: bearer }),
      await call(`${game}/games`, { headers: bearer }),
      await call(`${game}/fairness`, { method: "PUT", headers: bearer, json: { clientSeed: "mine" } })
    ]) {
      assert.strictEqual(answer.status, 401, answer.text)
      assert.strictEqual(answer.body.code, "SESSION_ENDED")
      assert.match(answer.headers.get("content-type") ?? "", /application\/problem\+json/)
    }
    assert.strictEqual((await player.bet(other.sessionToken)).status, 200, "another player plays on")
    await new Promise((r) => setTimeout(r, 300))
    const debited = world.wallet.messages().slice(before).filter((m) => m.body.type === "transaction.debit")
    assert.deepStrictEqual(debited.map((m) => m.body.data.playerId), ["p-2"], "no debit for an ended session")
    assert.deepStrictEqual((await terminate({ playerId: "p-1" })).body, { terminated: 0 })
    assert.deepStrictEqual((await terminate({ playerId: "nobody" })).body, { terminated: 0 })
  })

  it("autoplay limits are the server's (CONTRACT §12): its rounds stop at the count or the loss limit, with no debit sent", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email())
    const { sessionToken } = await player.newSession()
    const bearer = { authorization: `Bearer ${sessionToken}` }
    const start = (json: unknown) => call(`${world.gw.url}/api/v1.1/game-api/autoplay`, { method: "POST", headers: bearer, json })
    const auto = () =>
      call(`${world.gw.url}/api/v1.1/game-api/rounds`, {
        method: "POST", headers: bearer, json: { stake: "10.00", selection: "odd", autoplay: true }
      })
    const refused = async () => {
      const before = world.wallet.messages().filter((m) => m.body.type === "transaction.debit").length
      const answer = await auto()
      assert.strictEqual(answer.status, 409, answer.text)
      assert.strictEqual(answer.body.code, "AUTOPLAY_LIMIT_REACHED")
      assert.strictEqual(world.wallet.messages().filter((m) => m.body.type === "transaction.debit").length, before)
    }

    await refused()
    for (const [bad, field] of [[{ rounds: 0, lossLimit: "10.00" }, "rounds"], [{ rounds: 5 }, "lossLimit"],
      [{ rounds: 5, lossLimit: "0.00" }, "lossLimit"], [{ rounds: 5, lossLimit: "1.001" }, "lossLimit"], [{ rounds: 1001, lossLimit: "1" }, "rounds"]] as const) {
      const answer = await start(bad)
      assert.strictEqual(answer.status, 400, JSON.stringify(bad))
      assert.include(answer.body.detail, field)
    }
    const started = await start({ rounds: 2, lossLimit: "1000" })
    assert.deepStrictEqual(started.body, { rounds: 2, lossLimit: "1000.00" })
    assert.strictEqual((await auto()).status, 200)
    assert.strictEqual((await auto()).status, 200)
    await refused()
    assert.strictEqual((await player.bet(sessionToken)).status, 200, "a round the player plays is not autoplay's")

    // Autoplay of 200 rounds with a loss limit of one stake, played until the player is 10.00 down. A player
    // ahead the whole way (a few runs in a hundred) meets the count first, exactly at 200 rounds: autoplay is
    // started again, with its loss counted from zero, until a run ends at the loss limit.
    let lost = 0
    let played = 0
    assert.strictEqual((await start({ rounds: 200, lossLimit: "10.00" })).status, 200)
    while (lost < 1000) {
      const round = await auto()
      if (round.status === 409 && played === 200) {
        assert.strictEqual(round.body.code, "AUTOPLAY_LIMIT_REACHED")
        assert.strictEqual((await start({ rounds: 200, lossLimit: "10.00" })).status, 200)
        lost = 0
        played = 0
        continue
      }
      assert.strictEqual(round.status, 200, `round ${played + 1}, lost ${lost} of 1000 minor units: ${round.text}`)
      played++
      lost += 1000 - Math.round(Number(round.body.payout) * 100)
    }
    await refused()
  })

  it("a retail shop's launch asks its signed shopDetailsUrl; a blocked one is 422, a silent one 504, none set 422", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const launch = (player: { readonly api: string; readonly key: string }, shopId: string) =>
      call(`${player.api}/games/generate-launch-url?gameId=odd-even&playerId=p-1&sessionId=s-shop&shopId=${shopId}`, {
        headers: { "sv-api-key": player.key }
      })
    const online = await playerSession(world.gw, world.wallet.url, email())
    const unset = await launch(online, "shop-1")
    assert.strictEqual(unset.status, 422, unset.text)
    assert.strictEqual(unset.body.code, "SHOP_DETAILS_URL_NOT_SET")

    const retail = await playerSession(world.gw, world.wallet.url, email(), "real", "", {
      shopDetailsUrl: `${world.wallet.url}/shops`
    })
    for (const [shopId, status, code] of [["shop-blocked", 422, "SHOP_REJECTED"], ["shop-unknown", 422, "SHOP_REJECTED"],
      ["shop-slow", 504, "OPERATOR_TIMEOUT"]] as const) {
      const refused = await launch(retail, shopId)
      assert.strictEqual(refused.status, status, `${shopId}: ${refused.text}`)
      assert.strictEqual(refused.body.code, code, shopId)
      assert.strictEqual(refused.headers.get("content-type"), "application/problem+json")
    }
    const asked = world.wallet.received.filter((r) => r.url === "/shops")
    assert.deepStrictEqual(JSON.parse(asked.at(-1)?.body ?? "{}"), {
      shopId: "shop-slow", sessionId: "s-shop", gameId: "odd-even", mode: "real"
    })
    for (const r of asked) {
      new Webhook(retail.encryptionKey).verify(r.body, {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"])
      })
    }
  })

  it("a shop in another currency is refused at launch (422 CURRENCY_MISMATCH); a shop's maximumStake caps the rounds", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const settings = { shopDetailsUrl: `${world.wallet.url}/shops` }
    const dollars = await playerSession(world.gw, world.wallet.url, email(), "real", "&shopId=shop-usd", settings)
    const refused = await call(`${dollars.api}/games/generate-launch-url?gameId=odd-even&playerId=p-1&sessionId=s-usd&shopId=shop-usd`, {
      headers: { "sv-api-key": dollars.key }
    })
    assert.strictEqual(refused.status, 422, refused.text)
    assert.strictEqual(refused.body.code, "CURRENCY_MISMATCH")
    assert.strictEqual(refused.headers.get("content-type"), "application/problem+json")

    const capped = await playerSession(world.gw, world.wallet.url, email(), "real", "&shopId=shop-capped", settings)
    const { sessionToken, opened } = await capped.newSession()
    assert.strictEqual(opened.status, 201, opened.text)
    assert.strictEqual(opened.body.settings.maximumStake, 20, "the shop's 20.00 narrows the merchant's 500")
    const above = await capped.bet(sessionToken, "25.00")
    assert.strictEqual(above.status, 400, above.text)
    const at = await capped.bet(sessionToken, "20.00")
    assert.strictEqual(at.status, 200, at.text)
    const below = await capped.bet(sessionToken, "5.00")
    assert.strictEqual(below.status, 200, below.text)
  })

  it("a shop blocked between launch and redemption gets no session (422 SHOP_REJECTED), and the link redeems once it reopens", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email(), "real", "&shopId=shop-1", {
      shopDetailsUrl: `${world.wallet.url}/shops`
    })
    const token = await player.launch()
    world.wallet.setShops((shopId) => shopId === "shop-1"
      ? { status: 200, body: { shopId, name: "Bole Road Shop", currency: "ETB", status: "blocked" } }
      : shopAnswer(shopId))
    try {
      const blocked = await call(`${world.gw.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
      assert.strictEqual(blocked.status, 422, blocked.text)
      assert.strictEqual(blocked.body.code, "SHOP_REJECTED")
      world.wallet.setShops((shopId) => shopId === "shop-1"
        ? { status: 200, body: { shopId, name: "Bole Road Shop", currency: "USD", status: "active" } }
        : shopAnswer(shopId))
      const dollars = await call(`${world.gw.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
      assert.strictEqual(dollars.status, 422, dollars.text)
      assert.strictEqual(dollars.body.code, "CURRENCY_MISMATCH", "the shop's currency is re-checked too")
    } finally {
      world.wallet.setShops(shopAnswer)
    }
    const reopened = await call(`${world.gw.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
    assert.strictEqual(reopened.status, 201, `the claim was given back: ${reopened.text}`)
    assert.strictEqual(reopened.body.session.shop.shopId, "shop-1")
  })

  it("an active shop's session shows its name, narrows the stakes, and its rounds carry data.shopId and group by shop", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email(), "real", "&shopId=shop-1", {
      shopDetailsUrl: `${world.wallet.url}/shops`
    })
    const { sessionToken, opened } = await player.newSession()
    assert.strictEqual(opened.status, 201, opened.text)
    assert.deepStrictEqual(opened.body.launch.shop, { shopId: "shop-1", name: "Bole Road Shop" })
    assert.strictEqual(opened.body.session.shop.shopId, "shop-1")
    assert.strictEqual(opened.body.settings.minimumStake, 2, "the shop's 2.00 narrows the merchant's 1")
    const small = await player.bet(sessionToken, "1.50")
    assert.strictEqual(small.status, 400, small.text)
    assert.match(small.body.detail, /2\.00/)
    const round = await player.bet(sessionToken, "10.00")
    assert.strictEqual(round.status, 200, round.text)
    await eventually(() => forRound(round.body.roundId).length === 2)
    for (const message of forRound(round.body.roundId)) assert.strictEqual(message.body.data.shopId, "shop-1", message.body.type)

    const online = await playerSession(world.gw, world.wallet.url, email(), "real", "", {
      shopDetailsUrl: `${world.wallet.url}/shops`
    })
    const plain = await online.bet((await online.newSession()).sessionToken, "10.00")
    assert.strictEqual(plain.status, 200, plain.text)
    await eventually(() => forRound(plain.body.roundId).length === 2)
    assert.isFalse(forRound(plain.body.roundId).some((m) => "shopId" in m.body.data), "online play has no shopId")

    const from = new Date(Date.now() - 3_600_000).toISOString()
    const to = new Date(Date.now() + 3_600_000).toISOString()
    const headers = { "sv-api-key": player.key }
    const summary = await poll(
      () => call(`${player.api}/reports/summary?from=${from}&to=${to}&groupBy=shop`, { headers }),
      (r) => r.body?.data?.[0]?.rounds === 1
    )
    assert.deepStrictEqual(summary.body.data.map((g: { key: string }) => g.key), ["shop-1"])
    const filtered = await call(`${player.api}/rounds?from=${from}&to=${to}&shopId=shop-1`, { headers })
    assert.deepStrictEqual(filtered.body.data.map((r: { roundId: string; shopId: string }) => [r.roundId, r.shopId]), [
      [round.body.roundId, "shop-1"]
    ])
    const other = await call(`${player.api}/reports/summary?from=${from}&to=${to}&shopId=shop-2`, { headers })
    assert.strictEqual(other.body.total.rounds, 0)
    const csv = await fetch(`${player.api}/reports/summary?from=${from}&to=${to}&groupBy=shop`, {
      headers: { ...headers, accept: "text/csv" }
    })
    assert.match(await csv.text(), /\r\nshop-1,1,10\.00,/)
  })
})

describe("free rounds (CONTRACT §13), served by the real server process", () => {
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()
  const freeRound = (sessionToken: string, json: Record<string, unknown> = { selection: "odd", freeRound: true }) =>
    call(`${world.gw.url}/api/v1.1/game-api/rounds`, { method: "POST", headers: { authorization: `Bearer ${sessionToken}` }, json })

  it("a grant of 10 played 15 times at once in two sessions: 10 rounds, 5 × 409 NO_FREE_ROUNDS, no debit, wins credited with data.freeRound", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email())
    const operator = { "sv-api-key": player.key }
    const body = { campaignId: "welcome-10", playerId: "p-1", gameId: "odd-even", rounds: 10, stake: "2.00", expiresAt: inDays(7) }
    const granted = await call(`${player.api}/free-rounds`, { method: "POST", headers: operator, json: body })
    assert.strictEqual(granted.status, 201, granted.text)
    assert.include(granted.body, { campaignId: "welcome-10", rounds: 10, remaining: 10, stake: "2.00", currency: "ETB", status: "active" })
    const again = await call(`${player.api}/free-rounds`, { method: "POST", headers: operator, json: body })
    assert.strictEqual(again.body.id, granted.body.id, "a retried grant answers the first one")

    const { sessionToken, opened } = await player.newSession()
    assert.deepStrictEqual(opened.body.freeRounds, [{
      grantId: granted.body.id, campaignId: "welcome-10", remaining: 10, stake: "2.00", expiresAt: granted.body.expiresAt
    }])
    const second = await player.newSession()
    const before = world.wallet.messages().length
    // Two sessions of the player at once: only the grant's row lock stands between them.
    const tokenOf = (i: number) => i % 2 === 0 ? sessionToken : second.sessionToken
    const rounds = await Promise.all(Array.from({ length: 15 }, (_, i) => freeRound(tokenOf(i))))
    const played = rounds.filter((r) => r.status === 200)
    assert.strictEqual(played.length, 10, rounds.map((r) => r.status).join(","))
    const refused = rounds.filter((r) => r.status !== 200)
    assert.deepStrictEqual(refused.map((r) => [r.status, r.body.code]), Array.from({ length: 5 }, () => [409, "NO_FREE_ROUNDS"]))
    assert.deepStrictEqual(played.map((r) => r.body.freeRound.remaining).sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    const ids = new Set(played.map((r) => String(r.body.roundId)))
    const wins = played.filter((r) => Number(r.body.payout) > 0)
    await eventually(() => world.wallet.messages().filter((m) => ids.has(m.body.data.roundId)).length >= wins.length)
    await new Promise((r) => setTimeout(r, 500))
    const sent = world.wallet.messages().slice(before).filter((m) => ids.has(m.body.data.roundId))
    assert.strictEqual(sent.filter((m) => m.body.type === "transaction.debit").length, 0, "a free round sends no debit")
    assert.strictEqual(sent.length, wins.length, "a win sends one credit, a loss nothing")
    for (const win of wins) {
      const [credit] = sent.filter((m) => m.body.data.roundId === win.body.roundId)
      assert.strictEqual(credit?.body.type, "transaction.credit")
      assert.strictEqual(credit?.body.data.amount, win.body.payout)
      assert.isUndefined(credit?.body.data.refTransactionId)
      assert.deepStrictEqual(credit?.body.data.freeRound, { campaignId: "welcome-10", grantId: granted.body.id })
    }
    const raw = world.wallet.received.filter((r) => r.url === "/wallet" && ids.has(JSON.parse(r.body).data.roundId))
    for (const r of raw) {
      new Webhook(player.encryptionKey).verify(r.body, {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"])
      })
    }
    const period = `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`
    const summary = await call(`${player.api}/reports/summary?${period}&groupBy=game`, { headers: operator })
    const won = wins.reduce((sum, r) => sum + Math.round(Number(r.body.payout) * 100), 0)
    const money = (cents: number) => (cents / 100).toFixed(2)
    assert.include(summary.body.total, { rounds: wins.length, bets: "0.00", wins: money(won), freeWins: money(won), ggr: money(-won) })
    const report = await call(`${player.api}/rounds?${period}&limit=20`, { headers: operator })
    assert.strictEqual(report.body.data.length, 10)
    for (const r of report.body.data) {
      assert.strictEqual(r.freeRoundGrantId, granted.body.id)
      assert.deepStrictEqual(r.transactions.map((t: { type: string }) => t.type), Number(r.payout) > 0 ? ["credit"] : [])
    }
    const listed = await call(`${player.api}/free-rounds?playerId=p-1`, { headers: operator })
    assert.strictEqual(listed.status, 200, listed.text)
    assert.include(listed.body.data[0], { id: granted.body.id, remaining: 0, status: "used" })
    assert.include(listed.body.meta, { totalElements: 1, currentPage: 1 })
    const first = rounds.findIndex((r) => r.status === 200)
    const view = await call(`${world.gw.url}/api/v1.1/game-api/rounds/${rounds[first]?.body.roundId}`, {
      headers: { authorization: `Bearer ${tokenOf(first)}` }
    })
    assert.include(view.body, { stake: "2.00", status: "settled", mode: "real" })
  })

  it("cancel gives up what is left; an expired grant plays no more; test keys and bad bodies are refused", async () => {
    world.wallet.setReply(() => ({ status: 200 }))
    const player = await playerSession(world.gw, world.wallet.url, email())
    const operator = { "sv-api-key": player.key }
    const grant = (json: Record<string, unknown>, headers: Record<string, string> = operator) =>
      call(`${player.api}/free-rounds`, { method: "POST", headers, json })
    const base = { campaignId: "c", playerId: "p-1", gameId: "odd-even", rounds: 5, stake: "1.00", expiresAt: inDays(1) }
    const cancelling = await grant({ ...base, campaignId: "cancel-me" })
    const lapsing = await grant({ ...base, campaignId: "lapse", expiresAt: new Date(Date.now() + 1500).toISOString() })
    assert.strictEqual(lapsing.status, 201, lapsing.text)
    const { sessionToken, opened } = await player.newSession()
    assert.strictEqual(opened.body.freeRounds.length, 2)
    assert.strictEqual(opened.body.freeRounds[0].grantId, lapsing.body.id, "the grant that lapses first is listed first")

    const cancel = (id: string) => call(`${player.api}/free-rounds/${id}`, { method: "DELETE", headers: operator })
    const cancelled = await cancel(cancelling.body.id)
    assert.strictEqual(cancelled.status, 200, cancelled.text)
    assert.include(cancelled.body, { remaining: 0, status: "cancelled" })
    assert.strictEqual((await cancel(cancelling.body.id)).body.status, "cancelled")
    assert.strictEqual((await cancel("3f6c1a2b-7d4e-4b8a-9c0d-1e2f3a4b5c6d")).body.code, "GRANT_NOT_FOUND")
    const other = await playerSession(world.gw, world.wallet.url, email())
    const foreign = await call(`${player.api}/free-rounds/${lapsing.body.id}`, { method: "DELETE", headers: { "sv-api-key": other.key } })
    assert.strictEqual(foreign.status, 404, "another merchant's grant is not found")

    await new Promise((r) => setTimeout(r, 1600))
    const late = await freeRound(sessionToken)
    assert.strictEqual(late.status, 409, late.text)
    assert.strictEqual(late.body.code, "NO_FREE_ROUNDS")
    const listed = await call(`${player.api}/free-rounds?playerId=p-1&limit=1&page=2`, { headers: operator })
    assert.include(listed.body.meta, { totalElements: 2, currentPage: 2, prevPage: 1 })
    assert.include(listed.body.data[0], { id: cancelling.body.id })
    const all = await call(`${player.api}/free-rounds?playerId=p-1`, { headers: operator })
    assert.include(all.body.data.find((g: { id: string }) => g.id === lapsing.body.id), { status: "expired", remaining: 0 })

    const testKey = (await call(`${player.api}/merchants/${player.merchantId}/api-keys`, {
      method: "POST", headers: player.admin, json: { prefix: "sv_test" }
    })).body.apiKey
    assert.strictEqual((await grant(base, { "sv-api-key": testKey })).status, 403)
    assert.strictEqual((await call(`${player.api}/free-rounds?playerId=p-1`, { headers: { "sv-api-key": testKey } })).status, 403)
    assert.strictEqual((await call(`${player.api}/free-rounds/${lapsing.body.id}`, { method: "DELETE", headers: { "sv-api-key": testKey } })).status, 403)

    for (const [field, value] of [["rounds", 0], ["rounds", 1001], ["rounds", 1.5], ["stake", "0.50"], ["stake", "501"],
      ["stake", "1.234"], ["stake", "-1"], ["expiresAt", new Date(Date.now() - 1000).toISOString()], ["expiresAt", inDays(400)],
      ["expiresAt", "tomorrow"], ["campaignId", ""], ["campaignId", "x".repeat(65)], ["playerId", "p\u0000"],
      ["password", "x"]] as const) {
      const r = await grant({ ...base, [field]: value })
      assert.strictEqual(r.status, 400, `${field}=${String(value)}: ${r.text}`)
      assert.strictEqual(r.body.code, "VALIDATION_FAILED")
      assert.include(r.body.detail, field)
    }
    assert.strictEqual((await grant({ ...base, gameId: "no-such-game" })).body.code, "GAME_NOT_FOUND")
    const withStake = await freeRound(sessionToken, { stake: "1.00", selection: "odd", freeRound: true })
    assert.strictEqual(withStake.status, 400, withStake.text)
    const noStake = await freeRound(sessionToken, { selection: "odd" })
    assert.strictEqual(noStake.status, 400, noStake.text)
    assert.include(noStake.body.detail, "stake")
  })
})
