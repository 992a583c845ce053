import { assert, describe, it } from "vitest"
import { call } from "@gateway/adapters-http/testing"
import { playerSession, walletAndGateway } from "./Wallet.ts"

const world = walletAndGateway()
let n = 0
const email = () => `links${++n}@example.com`

const sessions = () => `${world.gw.url}/api/v1.1/game-api/sessions`
const redeem = (token: string) => call(sessions(), { method: "POST", json: { token } })
const detailsCalls = () => world.wallet.received.filter((r) => r.url === "/details").length

/** Flips one character of the token's payload, so its signature no longer verifies. */
const forge = (token: string) => {
  const [header = "", payload = "", signature = ""] = token.split(".")
  const i = Math.floor(payload.length / 2)
  return `${header}.${payload.slice(0, i)}${payload[i] === "A" ? "B" : "A"}${payload.slice(i + 1)}.${signature}`
}

describe("a used launch link calls nothing (issue 21 finding 5, CONTRACT §6)", () => {
  it("300 replays of a redeemed real-mode link are 409 and never reach the operator's Details URL", async () => {
    const player = await playerSession(world.gw, world.wallet.url, email(), "real")
    const token = await player.launch()
    const before = detailsCalls()
    const first = await redeem(token)
    assert.strictEqual(first.status, 201, first.text)
    assert.strictEqual(detailsCalls() - before, 1, "the first redemption re-checks the player once")
    // Six waves of 50 at once: 300 at once would pass the server's cap of connections per address (256).
    const replays = []
    for (let wave = 0; wave < 6; wave++) replays.push(...await Promise.all(Array.from({ length: 50 }, () => redeem(token))))
    assert.deepStrictEqual([...new Set(replays.map((r) => `${r.status} ${r.body.code}`))], ["409 TOKEN_ALREADY_USED"])
    assert.strictEqual(detailsCalls() - before, 1, "no replay asked the Details URL")
  })

  it("20 simultaneous first redemptions: one session, 19 × 409, one Details call", async () => {
    const player = await playerSession(world.gw, world.wallet.url, email(), "real")
    const token = await player.launch()
    const before = detailsCalls()
    const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(token)))
    assert.deepStrictEqual(answers.map((a) => a.status).sort(), [201, ...Array.from({ length: 19 }, () => 409)])
    assert.strictEqual(detailsCalls() - before, 1)
  })

  it("a forged or malformed token is 401 and calls nothing", async () => {
    const player = await playerSession(world.gw, world.wallet.url, email(), "real")
    const token = await player.launch()
    const before = detailsCalls()
    for (const bad of [forge(token), `${token}x`, "not-a-token"]) {
      const answer = await redeem(bad)
      assert.strictEqual(answer.status, 401, answer.text)
    }
    assert.strictEqual(detailsCalls() - before, 0)
  })
})
