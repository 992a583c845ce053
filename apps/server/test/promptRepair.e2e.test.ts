import { Effect, Exit, Scope } from "effect"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, gateway } from "../testing/Gateway.ts"
import { eventually, playerSession, startWallet } from "./Wallet.ts"

/*
 * Prompt repair after an outage (issue 21): the wallet is down when a bet is
 * placed, so the debit's outcome is unknown and a refund is queued; it stays
 * down past the first retry (5 s on the contract's schedule, then 5 min).
 * Once it answers again the refund must reach it within a couple of seconds,
 * not at the next step of the schedule. The gateway runs the contract's
 * default schedule (no WEBHOOK_RETRY_SCHEDULE).
 */
const scope = Effect.runSync(Scope.make())
let down = false
let gw: Gateway
let wallet: Awaited<ReturnType<typeof startWallet>>
beforeAll(async () => {
  wallet = await startWallet(() => down ? { status: 503, body: { error: "maintenance" } } : { status: 200 })
  gw = await Effect.runPromise(Scope.provide(scope)(gateway({ WEBHOOK_TIMEOUT_MS: "500" })))
})
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await wallet.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("prompt repair after an outage", () => {
  it("a refund queued while the wallet is down reaches it within 2.5 s of its recovery", async () => {
    const player = await playerSession(gw, wallet.url, "repair@example.com")
    const { sessionToken, opened } = await player.newSession()
    assert.strictEqual(opened.status, 201, opened.text)
    down = true
    const bet = await player.bet(sessionToken, "10.00")
    assert.strictEqual(bet.status, 502, bet.text)
    assert.strictEqual(bet.body.code, "WALLET_UNAVAILABLE")
    const refunds = () => wallet.messages().filter((m) => m.body.type === "transaction.refund")
    // The refund's first attempt (due at once) only sets the scene; a loaded CI machine may take a few seconds.
    await eventually(() => refunds().length >= 1, 15_000)
    await sleep(7_000) // past the first retry at 5 s: the schedule's next step is 5 min away
    const attemptsWhileDown = refunds().length
    down = false
    const recoveredAt = Date.now()
    const answered = () => wallet.messages().length
    const before = answered()
    await eventually(() => refunds().length > attemptsWhileDown, 2_500)
    const arrivedAfterMs = Date.now() - recoveredAt
    const [refund] = refunds().slice(-1)
    assert.strictEqual(refund?.body.data.amount, "10.00")
    console.log(`refund delivered ${arrivedAfterMs} ms after the wallet recovered; ${attemptsWhileDown} attempts while it was down; ${answered() - before} calls since`)
    await sleep(1_500)
    const ids = new Set(refunds().slice(attemptsWhileDown).map((m) => m.body.data.transactionId))
    assert.strictEqual(ids.size, 1)
    assert.strictEqual(refunds().length - attemptsWhileDown, 1, "sent once after the recovery, not again")
    assert.strictEqual(wallet.overlaps(), 0, "never two attempts of one message at once")
  })
})
