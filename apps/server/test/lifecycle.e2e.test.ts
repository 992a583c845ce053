import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { randomBytes } from "node:crypto"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { json, startOperator } from "@gateway/adapters-operator/testing"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { freePort, runToExit, spawnGateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
let databaseUrl: string

beforeAll(async () => {
  databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const encryptionKey = randomBytes(32).toString("base64")
const base = () => ({
  DATABASE_URL: databaseUrl,
  DATA_ENCRYPTION_KEY: encryptionKey,
  AUTH_JWT_SECRET: randomBytes(32).toString("base64url")
})

describe("starting and stopping the server", () => {
  for (const [name, value] of [["PORT", "eighty"], ["LAUNCH_TOKEN_TTL_SECONDS", "-5"], ["DETAILS_TIMEOUT_MS", "soon"],
    ["RATE_LIMIT_RPS", "many"], ["LOG_LEVEL", "loud"]] as const) {
    it(`stops with one clear line when ${name} is bad`, async () => {
      const { code, output } = await runToExit({ ...base(), PORT: String(await freePort()), [name]: value })
      assert.notStrictEqual(code, 0)
      const lines = output.trim().split("\n")
      assert.strictEqual(lines.length, 1, output)
      assert.match(lines[0] ?? "", /^gateway: cannot start: /)
      assert.include(lines[0], name)
    })
  }

  it("refuses to start on DATABASE_URL without a way to verify admin tokens, without printing secrets", async () => {
    const env = base()
    const { code, output } = await runToExit({
      DATABASE_URL: env.DATABASE_URL,
      DATA_ENCRYPTION_KEY: env.DATA_ENCRYPTION_KEY,
      PORT: String(await freePort())
    })
    assert.notStrictEqual(code, 0)
    assert.include(output, "AUTH_JWT_SECRET")
    assert.notInclude(output, env.DATA_ENCRYPTION_KEY)
  })

  it("names an unreachable database in one line without its password", async () => {
    const port = await freePort()
    const { code, output } = await runToExit({
      ...base(),
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://gateway:s3cret-pw@127.0.0.1:${port}/nope`
    })
    assert.notStrictEqual(code, 0)
    assert.strictEqual(output.trim().split("\n").length, 1, output)
    assert.include(output, "database")
    assert.notInclude(output, "s3cret-pw")
  })

  it("finishes an in-flight request on SIGTERM, then exits 0 and stops listening", async () => {
    const operator = await startOperator((r, res) => {
      setTimeout(() => json(res, 200, { playerId: JSON.parse(r.body).playerId, currency: "ETB", balance: "5.00" }), 1000)
    })
    try {
      const env = { ...base(), ALLOW_PRIVATE_OPERATOR_URLS: "true", DETAILS_TIMEOUT_MS: "5000" }
      const gw = await spawnGateway(env)
      const admin = { authorization: `Bearer ${await adminToken(env.AUTH_JWT_SECRET)}` }
      const api = `${gw.url}/api/v1.1/operator-api`
      const merchant = await call(`${api}/create`, {
        method: "POST", headers: admin,
        json: { countryCodes: ["ET"], companyName: "Stop Co", email: "stop@example.com", providerId: 1 }
      })
      await call(`${api}/merchants/${merchant.body.id}/settings`, {
        method: "PUT", headers: admin, json: { userDetailsUrl: `${operator.url}/details` }
      })
      const key = await call(`${api}/merchants/${merchant.body.id}/api-keys`, { method: "POST", headers: admin })
      const inflight = call(`${api}/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s`, {
        headers: { "sv-api-key": key.body.apiKey }
      })
      while (operator.received.length === 0) await new Promise((r) => setTimeout(r, 20))
      const exit = gw.stop("SIGTERM")
      const answer = await inflight
      assert.strictEqual(answer.status, 200, answer.text)
      assert.strictEqual(await exit, 0)
      const after = await fetch(`${gw.url}/health`).then(() => "answered", () => "refused")
      assert.strictEqual(after, "refused")
    } finally {
      await operator.close()
    }
  })
})
