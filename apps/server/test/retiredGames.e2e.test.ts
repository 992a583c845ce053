import { assert, describe, it } from "vitest"
import { call } from "@gateway/adapters-http/testing"
import { eventually, playerSession, walletAndGateway } from "./Wallet.ts"

const world = walletAndGateway()
const gameApi = () => `${world.gw.url}/api/v1.1/game-api`
const bearer = (sessionToken: string) => ({ authorization: `Bearer ${sessionToken}` })
const detailsCalls = () => world.wallet.received.filter((r) => r.url === "/details").length

describe("a retired game stays retired (issue 21 finding 6, CONTRACT §6)", () => {
  it("sessions opened and links issued before the retirement: 410 GAME_RETIRED, no debit, no Details call", async () => {
    const noLobby = await playerSession(world.gw, world.wallet.url, "retired1@example.com", "real", "&disableGameLobby=true")
    const lobby = await playerSession(world.gw, world.wallet.url, "retired2@example.com", "real")
    const before = await noLobby.newSession()
    assert.strictEqual(before.opened.status, 201, before.opened.text)
    const withLobby = await lobby.newSession()
    assert.strictEqual(withLobby.opened.status, 201, withLobby.opened.text)
    const played = await noLobby.bet(before.sessionToken, "2.00")
    assert.strictEqual(played.status, 200, played.text)
    const issuedBefore = await noLobby.launch()
    // The round played before is credited through the outbox, on its own time: counted before the retirement.
    await eventually(() =>
      world.wallet.messages().some((m) => m.body.type === "transaction.credit" && m.body.data.roundId === played.body.roundId), 10_000)

    const retired = await call(`${noLobby.api}/games/odd-even`, { method: "DELETE", headers: noLobby.admin })
    assert.strictEqual(retired.status, 204, retired.text)
    const walletBefore = world.wallet.messages().length
    const detailsBefore = detailsCalls()

    const bet = await noLobby.bet(before.sessionToken, "2.00")
    assert.strictEqual(bet.status, 410, bet.text)
    assert.strictEqual(bet.headers.get("content-type"), "application/problem+json")
    assert.strictEqual(bet.body.code, "GAME_RETIRED")
    assert.match(bet.body.detail, /odd-even/)
    const lobbyBet = await call(`${gameApi()}/rounds`, {
      method: "POST", headers: bearer(withLobby.sessionToken), json: { stake: "2.00", selection: "odd", gameId: "odd-even" }
    })
    assert.strictEqual(lobbyBet.status, 410, lobbyBet.text)
    assert.strictEqual(lobbyBet.body.code, "GAME_RETIRED")

    const redeemed = await call(`${gameApi()}/sessions`, { method: "POST", json: { token: issuedBefore } })
    assert.strictEqual(redeemed.status, 410, redeemed.text)
    assert.strictEqual(redeemed.body.code, "GAME_RETIRED")

    await new Promise((r) => setTimeout(r, 300))
    assert.strictEqual(world.wallet.messages().length - walletBefore, 0, "no debit, credit or refund was sent")
    assert.strictEqual(detailsCalls() - detailsBefore, 0, "the operator was not asked")

    const listed = await call(`${gameApi()}/games?limit=100`, { headers: bearer(withLobby.sessionToken) })
    assert.strictEqual(listed.status, 200, listed.text)
    assert.notInclude(listed.body.data.map((g: { gameId?: string; id?: string }) => g.gameId ?? g.id), "odd-even")
    const other = await call(`${gameApi()}/rounds`, {
      method: "POST", headers: bearer(withLobby.sessionToken), json: { stake: "2.00", selection: [1, 2, 3], gameId: "mega-ten" }
    })
    assert.strictEqual(other.status, 200, other.text)
    const launch = await call(`${noLobby.api}/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s`, {
      headers: { "sv-api-key": noLobby.key }
    })
    assert.strictEqual(launch.status, 404, launch.text)
  })
})
