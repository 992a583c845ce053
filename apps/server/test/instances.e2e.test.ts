import { adminToken, call } from "@gateway/adapters-http/testing"
import { json, startOperator } from "@gateway/adapters-operator/testing"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { connect } from "node:net"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
let a: Gateway
let b: Gateway
/** The loopback operator whose Details URL fails while `failing` is set. */
let operator: Awaited<ReturnType<typeof startOperator>>
let failing = false

/** Whether Redis answers a PING at 127.0.0.1:6379 within half a second. */
const redisAnswers = () =>
  new Promise<boolean>((resolve) => {
    const socket = connect(6379, "127.0.0.1")
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(500, () => done(false))
    socket.on("error", () => done(false))
    socket.on("connect", () => socket.write("PING\r\n"))
    socket.on("data", (data) => done(data.toString().startsWith("+PONG")))
  })

/** Redis at 127.0.0.1:6379 answered: the instances share their rate limits and breakers through it. */
const redis = await redisAnswers()

beforeAll(async () => {
  operator = await startOperator((r, res) =>
    failing
      ? json(res, 500, {})
      : json(res, 200, { playerId: JSON.parse(r.body).playerId, currency: "ETB", balance: "10.00" }))
  const env = {
    // Small budgets and a quick breaker, so that going over them takes a few requests; a unique key prefix per run.
    RATE_LIMIT_RPS: "1",
    RATE_LIMIT_BURST: "20",
    OPERATOR_BREAKER_FAILURES: "3",
    OPERATOR_BREAKER_OPEN_MS: "1000",
    ...(redis ? { REDIS_URL: "redis://127.0.0.1:6379", REDIS_KEY_PREFIX: `test-${randomUUID()}:` } : {}),
    DATABASE_URL: Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl))),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    AUTH_JWT_SECRET: randomBytes(32).toString("base64url"),
    ALLOW_PRIVATE_OPERATOR_URLS: "true",
    API_KEY_CACHE_TTL_MS: "3600000",
    READ_CACHE_TTL_MS: "3600000"
  }
  ;[a, b] = await Promise.all([spawnGateway(env), spawnGateway(env)])
})
afterAll(async () => {
  await Promise.all([a.stop("SIGKILL"), b.stop("SIGKILL"), operator?.close()])
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** Asks until `done` holds, for a second at most; the last answer. */
const within1s = async <A>(ask: () => Promise<A>, done: (a: A) => boolean): Promise<A> => {
  const deadline = Date.now() + 1000
  for (;;) {
    const answer = await ask()
    if (done(answer) || Date.now() > deadline) return answer
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe("two instances on one database, with hour-long caches", () => {
  it("a game upserted, a key revoked and a merchant suspended through A are seen by B within a second", async () => {
    const admin = { authorization: `Bearer ${await adminToken(a.authSecret)}` }
    const apiA = `${a.url}/api/v1.1/operator-api`
    const apiB = `${b.url}/api/v1.1/operator-api`
    const created = async (email: string) => {
      const merchant = await call(`${apiA}/create`, {
        method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Two Co", email, providerId: 1 }
      })
      const issued = await call(`${apiA}/merchants/${merchant.body.id}/api-keys`, { method: "POST", headers: admin })
      return { id: Number(merchant.body.id), key: String(issued.body.apiKey), slug: String(issued.body.slug) }
    }
    const one = await created("one@two.example")
    const two = await created("two@two.example")
    const three = await created("three@two.example")
    const launch = (key: string, gameId = "odd-even") =>
      call(`${apiB}/games/generate-launch-url?gameId=${gameId}&playerId=p&sessionId=s&mode=demo`, { headers: { "sv-api-key": key } })
    const search = () => call(`${apiB}/games?search=brand-new`, { headers: { "sv-api-key": three.key } })

    assert.strictEqual((await launch(one.key)).status, 200, "B has the key and the merchant in its caches")
    assert.strictEqual((await launch(two.key)).status, 200)
    const before = await search()
    assert.strictEqual(before.status, 200, before.text)
    assert.strictEqual(before.body.meta.totalElements, 0)
    assert.strictEqual((await launch(three.key, "brand-new-game")).status, 404)

    const game = await call(`${apiA}/games/brand-new-game`, {
      method: "PUT", headers: admin,
      json: { name: "Brand New", releaseDate: "2026-11-23", baseLaunchUrl: "https://games.example/new", category: 1, imageUrl: "https://games.example/new.png" }
    })
    assert.strictEqual(game.status, 200, game.text)
    assert.strictEqual((await call(`${apiA}/merchants/${one.id}/api-keys/${one.slug}`, { method: "DELETE", headers: admin })).status, 204)
    assert.strictEqual((await call(`${apiA}/merchants/${two.id}/status`, { method: "PATCH", headers: admin, json: { accountStatus: "suspended" } })).status, 200)

    const listed = await within1s(search, (r) => r.body.meta.totalElements === 1)
    assert.deepStrictEqual(listed.body.data.map((g: { id: string }) => g.id), ["brand-new-game"])
    assert.strictEqual((await launch(three.key, "brand-new-game")).status, 200)
    assert.strictEqual((await within1s(() => launch(one.key), (r) => r.status === 401)).status, 401)
    assert.strictEqual((await within1s(() => launch(two.key), (r) => r.status === 403)).status, 403)
  })

  it("a session terminated through A is refused by B at once, though B has it in memory (CONTRACT §12)", async () => {
    const admin = { authorization: `Bearer ${await adminToken(a.authSecret)}` }
    const apiA = `${a.url}/api/v1.1/operator-api`
    const merchant = await call(`${apiA}/create`, {
      method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Ends Co", email: "ends@two.example", providerId: 1 }
    })
    const key = String((await call(`${apiA}/merchants/${merchant.body.id}/api-keys`, { method: "POST", headers: admin })).body.apiKey)
    const launched = await call(`${b.url}/api/v1.1/operator-api/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s&mode=demo`, {
      headers: { "sv-api-key": key }
    })
    const token = new URL(launched.body.url).searchParams.get("token")
    const opened = await call(`${b.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
    assert.strictEqual(opened.status, 201, opened.text)
    const bet = () =>
      call(`${b.url}/api/v1.1/game-api/rounds`, {
        method: "POST", headers: { authorization: `Bearer ${opened.body.sessionToken}` }, json: { stake: "1.00", selection: "odd" }
      })
    assert.strictEqual((await bet()).status, 200)
    const ended = await call(`${apiA}/sessions/terminate`, { method: "POST", headers: { "sv-api-key": key }, json: { playerId: "p" } })
    assert.deepStrictEqual(ended.body, { terminated: 1 })
    const refused = await bet()
    assert.strictEqual(refused.status, 401, refused.text)
    assert.strictEqual(refused.body.code, "SESSION_ENDED")
  })
})

describe("two instances sharing one Redis (REDIS_URL)", () => {
  /** A new merchant with a live key, made through A. */
  const merchant = async (email: string) => {
    const admin = { authorization: `Bearer ${await adminToken(a.authSecret)}` }
    const api = `${a.url}/api/v1.1/operator-api`
    const created = await call(`${api}/create`, {
      method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Shared Co", email, providerId: 1 }
    })
    const issued = await call(`${api}/merchants/${created.body.id}/api-keys`, { method: "POST", headers: admin })
    return { id: Number(created.body.id), key: String(issued.body.apiKey), admin, api }
  }
  const launch = (gateway: Gateway, key: string, mode: "demo" | "real", sessionId = "s") =>
    call(`${gateway.url}/api/v1.1/operator-api/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=${sessionId}&mode=${mode}`, {
      headers: { "sv-api-key": key }
    })

  it.skipIf(!redis)("spend one API key's budget between them: 40 launches in turn through each, about 20 taken", async () => {
    const { key } = await merchant("budget@shared.example")
    const answers = []
    for (let n = 0; n < 40; n++) answers.push(await launch(n % 2 === 0 ? a : b, key, "demo", `s-${n}`))
    const taken = answers.filter((r) => r.status === 200).length
    const refused = answers.filter((r) => r.status === 429)
    assert.strictEqual(taken + refused.length, 40, answers.map((r) => r.status).join(","))
    // One budget of 20 (+ what 1 token a second refills meanwhile), not 20 per instance.
    assert.isAtLeast(taken, 20)
    assert.isAtMost(taken, 22)
    const [first] = refused
    assert.strictEqual(first?.headers.get("content-type"), "application/problem+json")
    assert.strictEqual(first?.body.code, "RATE_LIMITED")
    assert.isAtLeast(Number(first?.headers.get("retry-after")), 1)
    const refusedBy = new Set(answers.flatMap((r, n) => (r.status === 429 ? [n % 2] : [])))
    assert.strictEqual(refusedBy.size, 2, "both instances refuse once the shared budget is spent")
  })

  it.skipIf(!redis)("a breaker opened by failures seen on A makes B fail fast with 503 until a probe finds the operator back", async () => {
    const { id, key, admin, api } = await merchant("breaker@shared.example")
    const settings = await call(`${api}/merchants/${id}/settings`, {
      method: "PUT", headers: admin, json: { userDetailsUrl: `${operator.url}/details` }
    })
    assert.strictEqual(settings.status, 200, settings.text)
    const calls = () => operator.received.filter((r) => r.url === "/details").length
    const before = calls()
    failing = true
    for (let n = 0; n < 3; n++) assert.strictEqual((await launch(a, key, "real")).status, 502)
    assert.strictEqual(calls(), before + 3)

    const fast = await launch(b, key, "real")
    assert.strictEqual(fast.status, 503, fast.text)
    assert.strictEqual(fast.headers.get("content-type"), "application/problem+json")
    assert.strictEqual(fast.body.code, "OPERATOR_UNAVAILABLE")
    const retryAfter = Number(fast.headers.get("retry-after"))
    assert.isAtLeast(retryAfter, 1)
    assert.isAtMost(retryAfter, 2)
    assert.strictEqual(calls(), before + 3, "B did not call the operator")

    failing = false
    const deadline = Date.now() + 4000
    let probed = fast
    while (probed.status === 503 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300))
      probed = await launch(b, key, "real")
    }
    assert.strictEqual(probed.status, 200, probed.text)
    assert.strictEqual(calls(), before + 4, "one probe, after the open time")
    assert.strictEqual((await launch(a, key, "real")).status, 200, "closed for A too")
  })
})
