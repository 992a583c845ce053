import { createHash, createHmac } from "node:crypto"
import { assert, describe, it } from "vitest"
import { call } from "@gateway/adapters-http/testing"
import { eventually, playerSession, walletAndGateway } from "./Wallet.ts"

const world = walletAndGateway()
let n = 0
const email = () => `games${++n}@example.com`

const gameApi = () => `${world.gw.url}/api/v1.1/game-api`
const bearer = (sessionToken: string) => ({ authorization: `Bearer ${sessionToken}` })

/**
 * The round's draws recomputed as docs/games.md tells a player to, with nothing of the gateway's code: 32-byte
 * blocks HMAC-SHA256(serverSeed, `<clientSeed>:<nonce>` then `…:<i>`), read 4 bytes at a time big-endian, uniform
 * integers by rejection, k of n by a partial Fisher–Yates shuffle.
 */
const verifier = (serverSeed: string, clientSeed: string, nonce: number) => {
  let bytes = Buffer.alloc(0)
  let block = 0
  const next = () => {
    if (bytes.length < 4) {
      const message = block === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${block}`
      bytes = Buffer.concat([bytes, createHmac("sha256", serverSeed).update(message).digest()])
      block++
    }
    const x = bytes.readUInt32BE(0)
    bytes = bytes.subarray(4)
    return x
  }
  const int = (range: number) => {
    const limit = Math.floor(2 ** 32 / range) * range
    for (;;) {
      const x = next()
      if (x < limit) return x % range
    }
  }
  const sample = (k: number, range: number) => {
    const pool = Array.from({ length: range }, (_, i) => i)
    const drawn: Array<number> = []
    for (let j = 0; j < k; j++) {
      const pick = j + int(range - j)
      ;[pool[j], pool[pick]] = [pool[pick] as number, pool[j] as number]
      drawn.push((pool[j] as number) + 1)
    }
    return drawn
  }
  return { int, sample }
}

const colours = ["red", "green", "blue", "yellow", "white", "pink"]

/** What the draws of each game must show, recomputed from the revealed seed. */
const expectedDraw = (gameId: string, serverSeed: string, clientSeed: string, nonce: number) => {
  const v = verifier(serverSeed, clientSeed, nonce)
  switch (gameId) {
    case "odd-even":
    case "single":
      return { number: v.int(36) + 1 }
    case "under-over":
      return { dice: [v.int(6) + 1, v.int(6) + 1] }
    case "color-game":
      return { dice: [0, 1, 2].map(() => colours[v.int(6)]) }
    case "lotto":
      return { drawn: v.sample(6, 49) }
    case "mega-ten":
      return { drawn: v.sample(20, 80) }
    default:
      throw new Error(`no verifier for ${gameId}`)
  }
}

describe("the six built-in games, provably fair, through the real server", () => {
  it("a lobby session plays every game with each rules example; after a rotation every round verifies by hand", async () => {
    const player = await playerSession(world.gw, world.wallet.url, email(), "demo")
    const { sessionToken, opened } = await player.newSession()
    assert.strictEqual(opened.status, 201, opened.text)
    const committed = opened.body.fairness
    assert.match(committed.serverSeedHash, /^[0-9a-f]{64}$/)
    assert.strictEqual(committed.nonce, 0)

    const lobby = await call(`${gameApi()}/games`, { headers: bearer(sessionToken) })
    assert.strictEqual(lobby.status, 200, lobby.text)
    const games: Array<{ id: string; imageUrl: string; rtp: string }> = lobby.body.data
    assert.sameMembers(games.map((g) => g.id), ["odd-even", "under-over", "color-game", "lotto", "mega-ten", "single"])
    assert.strictEqual(lobby.body.meta.totalElements, 6)
    for (const game of games) {
      assert.strictEqual(game.imageUrl, `${world.gw.url}/static/games/${game.id}.svg`)
      assert.strictEqual(game.rtp, "97.50")
      const image = await fetch(game.imageUrl)
      assert.strictEqual(image.status, 200)
    }

    const rounds: Array<{ roundId: string; gameId: string; nonce: number }> = []
    for (const game of games) {
      const rules = await call(`${gameApi()}/games/${game.id}/rules`)
      assert.strictEqual(rules.status, 200, rules.text)
      assert.strictEqual(rules.body.rtp, "97.50")
      assert.isAbove(rules.body.payouts.length, 0)
      assert.isAbove(rules.body.examples.length, 0)
      for (const selection of rules.body.examples) {
        const round = await call(`${gameApi()}/rounds`, {
          method: "POST",
          headers: bearer(sessionToken),
          json: { stake: "1.00", selection, gameId: game.id }
        })
        assert.strictEqual(round.status, 200, `${game.id} ${JSON.stringify(selection)}: ${round.text}`)
        assert.strictEqual(round.body.gameId, game.id)
        assert.isString(round.body.outcome.summary)
        assert.strictEqual(round.body.fairness.serverSeedHash, committed.serverSeedHash)
        assert.strictEqual(round.body.fairness.nonce, rounds.length)
        rounds.push({ roundId: round.body.roundId, gameId: game.id, nonce: round.body.fairness.nonce })
      }
      const junk = await call(`${gameApi()}/rounds`, {
        method: "POST",
        headers: bearer(sessionToken),
        json: { stake: "1.00", selection: { junk: [1, 2, 3] }, gameId: game.id }
      })
      assert.strictEqual(junk.status, 400, junk.text)
      assert.match(junk.body.detail, /^selection/)
    }

    const unrevealed = await call(`${gameApi()}/rounds/${rounds[0]?.roundId}`, { headers: bearer(sessionToken) })
    assert.strictEqual(unrevealed.status, 200, unrevealed.text)
    assert.notProperty(unrevealed.body.fairness, "serverSeed")

    const rotated = await call(`${gameApi()}/fairness`, {
      method: "PUT",
      headers: bearer(sessionToken),
      json: { clientSeed: "my-own-seed" }
    })
    assert.strictEqual(rotated.status, 200, rotated.text)
    const { previous, current } = rotated.body
    assert.strictEqual(previous.serverSeedHash, committed.serverSeedHash)
    assert.strictEqual(createHash("sha256").update(previous.serverSeed).digest("hex"), committed.serverSeedHash)
    assert.strictEqual(previous.nonces, rounds.length)
    assert.deepStrictEqual({ clientSeed: current.clientSeed, nonce: current.nonce }, { clientSeed: "my-own-seed", nonce: 0 })

    for (const { roundId, gameId, nonce } of rounds) {
      const round = await call(`${gameApi()}/rounds/${roundId}`, { headers: bearer(sessionToken) })
      assert.strictEqual(round.status, 200, round.text)
      const { fairness, outcome } = round.body
      assert.strictEqual(fairness.serverSeed, previous.serverSeed)
      assert.strictEqual(fairness.nonce, nonce)
      const expected = expectedDraw(gameId, fairness.serverSeed, fairness.clientSeed, fairness.nonce)
      for (const [field, value] of Object.entries(expected)) {
        assert.deepStrictEqual(outcome[field], value, `${gameId} nonce ${nonce}: ${field}`)
      }
    }

    const after = await call(`${gameApi()}/rounds`, {
      method: "POST",
      headers: bearer(sessionToken),
      json: { stake: "1.00", selection: "odd" }
    })
    assert.deepStrictEqual(after.body.fairness, current)

    const history = await call(`${gameApi()}/rounds?limit=5`, { headers: bearer(sessionToken) })
    assert.strictEqual(history.status, 200, history.text)
    assert.strictEqual(history.body.meta.totalElements, rounds.length + 1)
    assert.strictEqual(history.body.data.length, 5)
    assert.strictEqual(history.body.data[0].roundId, after.body.roundId)

    const stranger = await player.newSession()
    const foreign = await call(`${gameApi()}/rounds/${rounds[0]?.roundId}`, { headers: bearer(stranger.sessionToken) })
    assert.strictEqual(foreign.status, 404)
    assert.strictEqual(foreign.body.code, "ROUND_NOT_FOUND")
  })

  it("a session launched without the lobby plays only its game; a game without an engine is 400", async () => {
    const player = await playerSession(world.gw, world.wallet.url, email(), "demo", "&disableGameLobby=true")
    const { sessionToken } = await player.newSession()
    const play = (gameId: string, selection: unknown) =>
      call(`${gameApi()}/rounds`, { method: "POST", headers: bearer(sessionToken), json: { stake: "1.00", selection, gameId } })
    assert.strictEqual((await play("odd-even", "even")).status, 200)
    const other = await play("single", 7)
    assert.strictEqual(other.status, 403, other.text)
    assert.strictEqual(other.body.code, "FORBIDDEN")
  })

  it("rules asked with a session token show the merchant's RTP and pay table; unknown games are 404", async () => {
    const player = await playerSession(world.gw, world.wallet.url, email(), "demo")
    await call(`${player.api}/merchants/${player.merchantId}/settings`, {
      method: "PUT",
      headers: player.admin,
      json: { oddEvenGameProfit: 5 }
    })
    const { sessionToken } = await player.newSession()
    const own = await call(`${gameApi()}/games/odd-even/rules`, { headers: bearer(sessionToken) })
    assert.strictEqual(own.status, 200, own.text)
    assert.strictEqual(own.body.rtp, "95.00")
    const anonymous = await call(`${gameApi()}/games/odd-even/rules`)
    assert.strictEqual(anonymous.body.rtp, "97.50")
    const round = await call(`${gameApi()}/rounds`, {
      method: "POST",
      headers: bearer(sessionToken),
      json: { stake: "100.00", selection: "odd" }
    })
    assert.include(["0.00", "190.00"], round.body.payout, "odd-even at 95.00 % pays 1.90x")
    const missing = await call(`${gameApi()}/games/mega-eleven/rules`)
    assert.strictEqual(missing.status, 404)
    assert.strictEqual(missing.body.code, "GAME_NOT_FOUND")
  })

  it("a change of a game's profit applies to sessions opened after it: an open session keeps its RTP, in its rules, lobby and payouts", async () => {
    const player = await playerSession(world.gw, world.wallet.url, email(), "demo", "", { oddEvenGameProfit: 5 })
    const before = await player.newSession()
    assert.deepInclude(before.opened.body.session.rtp, { "odd-even": "95.00", "mega-ten": "97.50" }, "the lobby's games, fixed at opening")
    const changed = await call(`${player.api}/merchants/${player.merchantId}/settings`, {
      method: "PUT",
      headers: player.admin,
      json: { oddEvenGameProfit: 10 }
    })
    assert.strictEqual(changed.status, 200, changed.text)
    const after = await player.newSession()
    assert.strictEqual(after.opened.body.session.rtp["odd-even"], "90.00")
    const rtpOf = async (sessionToken: string) => ({
      rules: (await call(`${gameApi()}/games/odd-even/rules`, { headers: bearer(sessionToken) })).body.rtp,
      lobby: (await call(`${gameApi()}/games`, { headers: bearer(sessionToken) })).body.data
        .find((g: { id: string }) => g.id === "odd-even").rtp
    })
    assert.deepStrictEqual(await rtpOf(before.sessionToken), { rules: "95.00", lobby: "95.00" })
    assert.deepStrictEqual(await rtpOf(after.sessionToken), { rules: "90.00", lobby: "90.00" })
    const payouts = async (sessionToken: string) => {
      const seen = new Set<string>()
      for (let i = 0; i < 40 && seen.size < 2; i++) {
        const round = await call(`${gameApi()}/rounds`, {
          method: "POST", headers: bearer(sessionToken), json: { stake: "100.00", selection: "odd" }
        })
        assert.strictEqual(round.status, 200, round.text)
        seen.add(round.body.payout)
      }
      return [...seen].sort()
    }
    assert.deepStrictEqual(await payouts(before.sessionToken), ["0.00", "190.00"], "the open session still pays 1.90x")
    assert.deepStrictEqual(await payouts(after.sessionToken), ["0.00", "180.00"], "a new one pays 1.80x")
  })

  it("real mode: redemption re-checks the player; blocked or another currency is 422 and the link still works later", async () => {
    const player = await playerSession(world.gw, world.wallet.url, email(), "real")
    try {
      const token = await player.launch()
      const redeem = () => call(`${gameApi()}/sessions`, { method: "POST", json: { token } })
      world.wallet.setDetails((body) => ({ playerId: body.playerId, currency: "ETB", balance: "1000.00", status: "blocked" }))
      const blocked = await redeem()
      assert.strictEqual(blocked.status, 422, blocked.text)
      assert.strictEqual(blocked.body.code, "PLAYER_REJECTED")
      world.wallet.setDetails((body) => ({ playerId: body.playerId, currency: "USD", balance: "1000.00" }))
      const otherCurrency = await redeem()
      assert.strictEqual(otherCurrency.status, 422, otherCurrency.text)
      assert.strictEqual(otherCurrency.body.code, "CURRENCY_MISMATCH")
      world.wallet.setDetails((body) => ({ playerId: body.playerId, currency: "ETB", balance: "1000.00" }))
      const opened = await redeem()
      assert.strictEqual(opened.status, 201, opened.text)
      assert.strictEqual((await redeem()).status, 409)

      const sessionToken = String(opened.body.sessionToken)
      const round = await call(`${gameApi()}/rounds`, {
        method: "POST",
        headers: bearer(sessionToken),
        json: { stake: "2.00", selection: [3, 14, 15, 92 - 50, 65 - 20], gameId: "mega-ten" }
      })
      assert.strictEqual(round.status, 200, round.text)
      await eventually(() => world.wallet.messages().filter((m) => m.body.data.roundId === round.body.roundId).length === 2)
      const [debit, credit] = world.wallet.messages().filter((m) => m.body.data.roundId === round.body.roundId)
      assert.strictEqual(debit?.body.data.amount, "2.00")
      assert.strictEqual((debit?.body.data as { gameId?: string }).gameId, "mega-ten")
      assert.strictEqual(credit?.body.data.amount, round.body.payout)
    } finally {
      world.wallet.setDetails((body) => ({ playerId: body.playerId, currency: "ETB", balance: "1000.00" }))
    }
  })
})
