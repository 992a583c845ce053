import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { randomBytes } from "node:crypto"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"
import { eventually, playerSession, startWallet } from "./Wallet.ts"

const scope = Effect.runSync(Scope.make())
let env: Record<string, string>
let wallet: Awaited<ReturnType<typeof startWallet>>
const running: Array<Gateway> = []

beforeAll(async () => {
  wallet = await startWallet(() => ({ status: 200 }))
  const databaseUrl = await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl))
  env = {
    DATABASE_URL: Redacted.value(databaseUrl),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    AUTH_JWT_SECRET: randomBytes(32).toString("base64url"),
    ALLOW_PRIVATE_OPERATOR_URLS: "true",
    WEBHOOK_TIMEOUT_MS: "1000",
    WEBHOOK_RETRY_SCHEDULE: "0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2"
  }
})
afterAll(async () => {
  await Promise.all(running.map((g) => g.stop("SIGKILL")))
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await wallet.close()
})

const start = async () => {
  const g = await spawnGateway(env)
  running.push(g)
  return g
}

const creditsAccepted = (roundIds: ReadonlySet<string>) => {
  const ok = new Set<string>()
  for (const m of wallet.messages()) {
    if (m.body.type === "transaction.credit" && roundIds.has(m.body.data.roundId)) ok.add(m.body.data.transactionId)
  }
  return ok
}

describe("no message is lost, and none is sent by two instances at once", () => {
  it("credits queued before a SIGKILL are all delivered after a restart", async () => {
    let creditsFail = true
    wallet.setReply((_r, body) => body.type === "transaction.credit" && creditsFail ? { status: 500 } : { status: 200 })
    const first = await start()
    const player = await playerSession(first, wallet.url, "crash@example.com")
    const { sessionToken } = await player.newSession()
    const rounds = await Promise.all(Array.from({ length: 10 }, () => player.bet(sessionToken, "2.00")))
    for (const r of rounds) assert.strictEqual(r.status, 200, r.text)
    const roundIds = new Set(rounds.map((r) => String(r.body.roundId)))
    await eventually(() => wallet.messages().filter((m) => m.body.type === "transaction.credit" && roundIds.has(m.body.data.roundId)).length >= 10)
    assert.strictEqual(await first.stop("SIGKILL"), null)
    creditsFail = false
    const delivered = () =>
      new Set(wallet.messages().filter((m) => m.body.type === "transaction.credit" && roundIds.has(m.body.data.roundId))
        .map((m) => m.body.data.transactionId))
    const before = wallet.messages().length
    await start()
    await eventually(() => {
      const after = wallet.messages().slice(before)
      const ok = new Set(after.filter((m) => m.body.type === "transaction.credit" && roundIds.has(m.body.data.roundId))
        .map((m) => m.body.data.transactionId))
      return ok.size === 10
    }, 60_000)
    assert.strictEqual(delivered().size, 10)
  })

  it("credits in flight when an instance stops (SIGTERM) reach the wallet once, and what it held goes out at once from the next", async () => {
    // Each credit takes the wallet 300 ms: the instance is stopped while they are being sent.
    wallet.setReply((_r, body) => body.type === "transaction.credit" ? { status: 200, delayMs: 300 } : { status: 200 })
    const first = await start()
    const player = await playerSession(first, wallet.url, "stop@example.com")
    const { sessionToken } = await player.newSession()
    const rounds = await Promise.all(Array.from({ length: 12 }, () => player.bet(sessionToken, "1.00")))
    for (const r of rounds) assert.strictEqual(r.status, 200, r.text)
    const roundIds = new Set(rounds.map((r) => String(r.body.roundId)))
    const credits = () => wallet.messages().filter((m) => m.body.type === "transaction.credit" && roundIds.has(m.body.data.roundId))
    await eventually(() => credits().length > 0)
    const stoppedAt = Date.now()
    assert.strictEqual(await first.stop("SIGTERM"), 0)
    await start()
    await eventually(() => creditsAccepted(roundIds).size === 12, 60_000)
    // Released, not left leased: the next instance sent what the first still held within seconds, not a lease later.
    assert.isBelow(Date.now() - stoppedAt, 20_000)
    await new Promise((r) => setTimeout(r, 1000))
    const perCredit = new Map<string, number>()
    for (const m of credits()) perCredit.set(m.body.data.transactionId, (perCredit.get(m.body.data.transactionId) ?? 0) + 1)
    assert.strictEqual(perCredit.size, 12)
    assert.deepStrictEqual([...new Set(perCredit.values())], [1], "each credit received once")
  })

  it("two instances on one database deliver every queued message, never the same one concurrently", async () => {
    wallet.setReply((_r, body) => body.type === "transaction.credit" ? { status: 200, delayMs: 150 } : { status: 200 })
    const [a, b] = [running.at(-1) ?? (await start()), await start()]
    const players = await Promise.all([
      playerSession(a, wallet.url, "two-a@example.com"),
      playerSession(b, wallet.url, "two-b@example.com")
    ])
    const sessions = await Promise.all(players.map((p) => p.newSession()))
    const rounds = (await Promise.all(players.flatMap((p, i) =>
      Array.from({ length: 20 }, () => p.bet(sessions[i]?.sessionToken ?? "", "1.00"))
    )))
    for (const r of rounds) assert.strictEqual(r.status, 200, r.text)
    const roundIds = new Set(rounds.map((r) => String(r.body.roundId)))
    await eventually(() => creditsAccepted(roundIds).size === 40, 60_000)
    await new Promise((r) => setTimeout(r, 1000))
    const credits = wallet.messages().filter((m) => m.body.type === "transaction.credit" && roundIds.has(m.body.data.roundId))
    assert.strictEqual(credits.length, 40)
    assert.strictEqual(wallet.overlaps(), 0)
  })
})
