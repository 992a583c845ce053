import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"
import { playerSession, startWallet } from "./Wallet.ts"

/*
 * A frozen database (every PostgreSQL process SIGSTOPped: a stalled disk, a paused VM) used to hold each request
 * for as long as the freeze. Its own statement_timeout cannot fire, so the gateway keeps a clock of its own: the
 * request is answered 503 within seconds, and the gateway recovers once the database thaws. A throw-away server:
 * never the shared one at DATABASE_URL.
 */

const scope = Effect.runSync(Scope.make())
const cleanups: Array<() => unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await Promise.resolve().then(cleanup).catch(() => undefined)
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** Statement time-out of the gateway under test: a frozen database is given up after it + 1 s. */
const statementTimeoutMs = 2_000

describe("a frozen database", () => {
  it("answers bets and /ready 503 SERVICE_UNAVAILABLE within seconds, and recovers when it thaws", async () => {
    const server = await Effect.runPromise(Scope.provide(scope)(PgTest.startThrowAwayServer))
    const pids = () => {
      const postmaster = Number(readFileSync(join(server.dataDir, "postmaster.pid"), "utf8").split("\n")[0])
      const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], { encoding: "utf8" })
        .split("\n").map((line) => Number(line.trim())).filter((pid) => pid > 0)
      return [postmaster, ...children]
    }
    const signal = (name: NodeJS.Signals) => pids().forEach((pid) => process.kill(pid, name))
    cleanups.push(() => signal("SIGCONT"))
    const wallet = await startWallet(() => ({ status: 200 }))
    cleanups.push(() => wallet.close())
    const gw: Gateway = await spawnGateway({
      DATABASE_URL: Redacted.value(server.url),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      ALLOW_PRIVATE_OPERATOR_URLS: "true",
      RATE_LIMIT_RPS: "0",
      DATABASE_STATEMENT_TIMEOUT_MS: String(statementTimeoutMs)
    })
    cleanups.push(() => gw.stop("SIGKILL"))
    const player = await playerSession(gw, wallet.url, "frozen@example.com")
    const { sessionToken } = await player.newSession()
    assert.strictEqual((await player.bet(sessionToken, "1.00")).status, 200)

    signal("SIGSTOP")
    const timed = async (path: string, init: RequestInit = {}) => {
      const started = performance.now()
      const answer = await fetch(`${gw.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) })
      const body = await answer.text()
      return { status: answer.status, body, retryAfter: answer.headers.get("retry-after"), ms: performance.now() - started }
    }
    const bet = () =>
      timed("/api/v1.1/game-api/rounds", {
        method: "POST",
        headers: { authorization: `Bearer ${sessionToken}`, "content-type": "application/json" },
        body: JSON.stringify({ stake: "1.00", selection: "odd" })
      })
    const [frozenBet, ready] = await Promise.all([bet(), timed("/ready")])
    assert.strictEqual(frozenBet.status, 503, frozenBet.body)
    assert.strictEqual(JSON.parse(frozenBet.body).code, "SERVICE_UNAVAILABLE")
    assert.match(frozenBet.retryAfter ?? "", /^\d+$/)
    assert.isBelow(frozenBet.ms, statementTimeoutMs + 6_000, "answered within the time-out, not when the database thaws")
    assert.strictEqual(ready.status, 503)
    assert.isBelow(ready.ms, statementTimeoutMs + 6_000)
    assert.strictEqual((await fetch(`${gw.url}/health`)).status, 200, "the process itself is up")

    signal("SIGCONT")
    const deadline = Date.now() + 20_000
    let after = await bet()
    while (after.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      after = await bet()
    }
    assert.strictEqual(after.status, 200, after.body)
    assert.strictEqual((await timed("/ready")).status, 200)
  }, 120_000)
})
