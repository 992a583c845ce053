import { Effect, Exit, Scope } from "effect"
import { createRemoteJWKSet, jwtVerify, SignJWT } from "jose"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { json, startOperator } from "@gateway/adapters-operator/testing"
import { type Answer, adminToken, call } from "@gateway/adapters-http/testing"
import { type Gateway, gateway } from "../testing/Gateway.ts"

const API = "/api/v1.1/operator-api"
const scope = Effect.runSync(Scope.make())
let gw: Gateway
let operator: Awaited<ReturnType<typeof startOperator>>
let admin: string
const secrets: Array<string> = []

const details = (playerId: string, currency = "ETB", extra: Record<string, unknown> = {}) => ({
  playerId, currency, balance: "100.00", ...extra
})

beforeAll(async () => {
  operator = await startOperator((r, res) => {
    const playerId = String(JSON.parse(r.body).playerId)
    switch (r.url) {
      case "/slow": return void setTimeout(() => json(res, 200, details(playerId)), 3000)
      case "/404": return json(res, 404, { error: "unknown player" })
      case "/500": return json(res, 500, { error: "down" })
      case "/garbage": return json(res, 200, "<html>")
      case "/usd": return json(res, 200, details(playerId, "USD"))
      case "/blocked": return json(res, 200, details(playerId, "ETB", { status: "blocked" }))
      default: return json(res, 200, details(playerId))
    }
  })
  // 1.5 s: the slow operator (3 s) times out, while 50 launches at once on a busy CI machine do not (500 ms
  // did not always hold for them).
  gw = await Effect.runPromise(Scope.provide(scope)(gateway({ DETAILS_TIMEOUT_MS: "1500", LOG_LEVEL: "Debug" })))
  admin = await adminToken(gw.authSecret)
  secrets.push(admin)
})

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await operator.close()
})

const asAdmin = (token = admin) => ({ authorization: `Bearer ${token}` })
const assertProblem = (answer: Answer, status: number, code: string) => {
  assert.strictEqual(answer.status, status, answer.text)
  assert.match(answer.headers.get("content-type") ?? "", /^application\/problem\+json/)
  assert.strictEqual(answer.body.success, false)
  assert.strictEqual(answer.body.status, status)
  assert.strictEqual(answer.body.code, code)
  assert.isString(answer.body.title)
  assert.isString(answer.body.detail)
}

let counter = 0
const newMerchant = async (countryCodes = ["ET"]) => {
  const created = await call(`${gw.url}${API}/create`, {
    method: "POST",
    headers: asAdmin(),
    json: { countryCodes, companyName: "Addis Bet", email: `ops${++counter}@addis.example`, providerId: 1 }
  })
  assert.strictEqual(created.status, 201, created.text)
  secrets.push(created.body.password, created.body.privateKey, created.body.encryptionKey, created.body.otpToken)
  const key = await call(`${gw.url}${API}/merchants/${created.body.id}/api-keys`, { method: "POST", headers: asAdmin() })
  assert.strictEqual(key.status, 201, key.text)
  secrets.push(key.body.apiKey.split(".")[1])
  return { merchant: created.body, apiKey: String(key.body.apiKey), slug: String(key.body.slug) }
}

const setDetailsUrl = (id: number, path: string) =>
  call(`${gw.url}${API}/merchants/${id}/settings`, {
    method: "PUT",
    headers: asAdmin(),
    json: { userDetailsUrl: `${operator.url}${path}` }
  })

const launch = (apiKey: string, query: Record<string, string>) =>
  call(`${gw.url}${API}/games/generate-launch-url?${new URLSearchParams({
    gameId: "odd-even", playerId: "p-1", sessionId: "s-1", ...query
  })}`, { headers: { "sv-api-key": apiKey } })

describe("the seed endpoints on PostgreSQL, served by the real server process", () => {
  it("creates a merchant with every field of the seed and real credentials", async () => {
    const { merchant } = await newMerchant(["KE", "ET"])
    for (const field of ["id", "createdAt", "updatedAt", "email", "password", "accountStatus", "clientId", "companyName",
      "country", "currency", "encryptionKey", "hashedClientId", "phoneNumber", "privateKey", "providerId", "publicKey"]) {
      assert.property(merchant, field)
    }
    assert.strictEqual(merchant.country, "KE")
    assert.strictEqual(merchant.currency, "KES")
    assert.strictEqual(merchant.accountStatus, "active")
    assert.match(merchant.encryptionKey, /^whsec_[A-Za-z0-9+/]{43}=$/)
    assert.match(merchant.privateKey, /BEGIN PRIVATE KEY/)
    assert.match(merchant.otpToken, /^\d{6}$/)
    assert.isObject(merchant.MerchantSettings)
    const read = await call(`${gw.url}${API}/merchants/${merchant.id}`, { headers: asAdmin() })
    assert.strictEqual(read.status, 200)
    for (const secret of ["password", "privateKey", "encryptionKey", "otpToken"]) assert.notProperty(read.body, secret)
  })

  it("refuses a duplicate email in another case, bad bodies, and bad tokens", async () => {
    const { merchant } = await newMerchant()
    const body = { countryCodes: ["ET"], companyName: "X", email: merchant.email.toUpperCase(), providerId: 1 }
    assertProblem(await call(`${gw.url}${API}/create`, { method: "POST", headers: asAdmin(), json: body }), 409, "EMAIL_TAKEN")
    assertProblem(
      await call(`${gw.url}${API}/create`, { method: "POST", headers: asAdmin(), json: { ...body, countryCodes: ["XX"] } }),
      400,
      "VALIDATION_FAILED"
    )
    const key = new TextEncoder().encode(gw.authSecret)
    const expired = await new SignJWT({ scope: "write:users" }).setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(key)
    const forged = await adminToken("another-secret-another-secret-another-secret")
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${
      Buffer.from(JSON.stringify({ scope: "write:users", exp: 9999999999 })).toString("base64url")}.`
    for (const token of [expired, forged, none, "garbage"]) {
      assertProblem(await call(`${gw.url}${API}/create`, { method: "POST", headers: asAdmin(token), json: body }), 401, "UNAUTHORIZED")
    }
    const readOnly = await adminToken(gw.authSecret, "read:users")
    assertProblem(await call(`${gw.url}${API}/create`, { method: "POST", headers: asAdmin(readOnly), json: body }), 403, "FORBIDDEN")
    const alias = await call(`${gw.url}${API}/merchants/${merchant.id}`, { headers: { "access-token": admin } })
    assert.strictEqual(alias.status, 200)
  })

  it("lists games from the database, searching SQL metacharacters as data", async () => {
    const { apiKey } = await newMerchant()
    for (const [id, name] of [["pct", "100% Luck"], ["under", "Lucky_Star"], ["slash", "Back\\slash"], ["plain", "Plain Luck"]]) {
      const put = await call(`${gw.url}${API}/games/${id}`, {
        method: "PUT",
        headers: asAdmin(),
        json: { name, releaseDate: "2025-01-01", baseLaunchUrl: "https://games.example/x", category: 9, imageUrl: "https://games.example/x.png" }
      })
      assert.strictEqual(put.status, 200, put.text)
    }
    const list = (query: string) => call(`${gw.url}${API}/games?${query}`, { headers: { "sv-api-key": apiKey } })
    const names = async (query: string) => (await list(query)).body.data.map((g: { name: string }) => g.name)
    assert.deepStrictEqual(await names("search=%25&searchFields=name"), ["100% Luck"])
    assert.deepStrictEqual(await names("search=_&searchFields=name"), ["Lucky_Star"])
    assert.deepStrictEqual(await names("search=%5C&searchFields=name"), ["Back\\slash"])
    assert.deepStrictEqual(await names("search=luck&searchFields=name&sortBy=name&sortOrder=DESC"), ["Plain Luck", "Lucky_Star", "100% Luck"])
    const page = await list("limit=3&page=2&sortBy=id")
    assert.deepStrictEqual(page.body.meta, { currentPage: 2, limit: 3, nextPage: 3, prevPage: 1, totalElements: 10, totalPage: 4 })
    const builtIn = (await list("search=odd-even&searchFields=id")).body.data[0]
    assert.strictEqual(builtIn.baseLaunchUrl, `${gw.url}/play/odd-even`)
    for (const bad of ["page=0", "limit=101", "limit=x", "sortBy=password", "sortOrder=up", "searchFields=email"]) {
      const answer = await list(bad)
      assertProblem(answer, 400, "VALIDATION_FAILED")
      assert.include(answer.body.detail, bad.split("=")[0])
    }
    assert.strictEqual((await call(`${gw.url}${API}/games/pct`, { method: "DELETE", headers: asAdmin() })).status, 204)
    assert.deepStrictEqual(await names("search=%25&searchFields=name"), [])
    assertProblem(await launch(apiKey, { gameId: "pct", mode: "demo" }), 404, "GAME_NOT_FOUND")
  })

  it("authenticates API keys: missing, malformed, unknown, revoked, suspended", async () => {
    const { merchant, apiKey, slug } = await newMerchant()
    const games = (key?: string) => call(`${gw.url}${API}/games`, { headers: key === undefined ? {} : { "sv-api-key": key } })
    assert.strictEqual((await games(apiKey)).status, 200)
    assertProblem(await games(), 401, "UNAUTHORIZED")
    assertProblem(await games("not.a-key"), 401, "UNAUTHORIZED")
    assertProblem(await games(apiKey.replace(/\.[^.]+\./, `.${"A".repeat(43)}.`)), 401, "UNAUTHORIZED")
    assertProblem(await launch(`sv_live.${"A".repeat(43)}.unknown99`, { mode: "demo" }), 401, "UNAUTHORIZED")
    assertProblem(await launch(`sv_live.${"A".repeat(43)}.unknown99`, { mode: "fun", gameId: "nope" }), 401, "UNAUTHORIZED")
    const revoke = await call(`${gw.url}${API}/merchants/${merchant.id}/api-keys/${slug}`, { method: "DELETE", headers: asAdmin() })
    assert.strictEqual(revoke.status, 204)
    assertProblem(await games(apiKey), 401, "UNAUTHORIZED")
    const other = await newMerchant()
    const suspend = await call(`${gw.url}${API}/merchants/${other.merchant.id}/status`, {
      method: "PATCH", headers: asAdmin(), json: { accountStatus: "suspended" }
    })
    assert.strictEqual(suspend.status, 200, suspend.text)
    assertProblem(await games(other.apiKey), 403, "FORBIDDEN")
    assertProblem(await launch(other.apiKey, { mode: "fun" }), 403, "FORBIDDEN")
  })

  it("launches in real mode through the operator's Details URL, with every error of the contract", async () => {
    const { merchant, apiKey } = await newMerchant()
    assertProblem(await launch(apiKey, {}), 422, "DETAILS_URL_NOT_SET")
    assert.strictEqual((await setDetailsUrl(merchant.id, "/details")).status, 200)
    const ok = await launch(apiKey, { disableGameLobby: "true" })
    assert.strictEqual(ok.status, 200, ok.text)
    assert.strictEqual(ok.headers.get("cache-control"), "no-store")
    assert.isTrue(ok.body.success)
    assert.match(ok.body.url, new RegExp(`^${gw.url}/play/odd-even\\?token=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`))
    assertProblem(await launch(apiKey, { currency: "USD" }), 422, "CURRENCY_MISMATCH")
    assertProblem(await launch(apiKey, { gameId: "nope" }), 404, "GAME_NOT_FOUND")
    for (const [path, status, code] of [["/usd", 422, "CURRENCY_MISMATCH"], ["/blocked", 422, "PLAYER_REJECTED"],
      ["/404", 422, "PLAYER_REJECTED"], ["/500", 502, "OPERATOR_BAD_RESPONSE"], ["/garbage", 502, "OPERATOR_BAD_RESPONSE"],
      ["/slow", 504, "OPERATOR_TIMEOUT"]] as const) {
      await setDetailsUrl(merchant.id, path)
      assertProblem(await launch(apiKey, {}), status, code)
    }
    for (const bad of ["mode=fun", "disableGameLobby=yes", "currency=etb", "sessionId="]) {
      const [name, value] = bad.split("=")
      assertProblem(await launch(apiKey, { [name ?? ""]: value ?? "" }), 400, "VALIDATION_FAILED")
    }
  })

  it("50 concurrent real launches all succeed with distinct jti, and each token verifies against the JWKS", async () => {
    const { merchant, apiKey } = await newMerchant()
    await setDetailsUrl(merchant.id, "/details")
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => launch(apiKey, { playerId: `p-${i}`, sessionId: `s-${i}` }))
    )
    const jwks = createRemoteJWKSet(new URL(`${gw.url}/.well-known/jwks.json`))
    const jtis = new Set<string>()
    for (const [i, answer] of answers.entries()) {
      assert.strictEqual(answer.status, 200, answer.text)
      const token = new URL(answer.body.url).searchParams.get("token") ?? ""
      const { payload, protectedHeader } = await jwtVerify(token, jwks, {
        algorithms: ["EdDSA"], audience: "launch", issuer: gw.url
      })
      assert.isString(protectedHeader.kid)
      assert.deepStrictEqual(Object.keys(payload).sort(),
        ["aud", "cur", "exp", "gid", "iat", "iss", "jti", "lobby", "mid", "mode", "sid", "sub"])
      assert.include(payload, { sub: `p-${i}`, sid: `s-${i}`, gid: "odd-even", mid: merchant.id, mode: "real", cur: "ETB", lobby: true })
      assert.strictEqual(Number(payload.exp) - Number(payload.iat), 60)
      jtis.add(String(payload.jti))
    }
    assert.strictEqual(jtis.size, 50)
  })

  it("demo launches never call the operator", async () => {
    const { merchant, apiKey } = await newMerchant()
    await setDetailsUrl(merchant.id, "/details")
    const before = operator.received.length
    const demo = await launch(apiKey, { mode: "demo" })
    assert.strictEqual(demo.status, 200, demo.text)
    assert.strictEqual(operator.received.length, before)
  })

  it("answers unknown routes, health and readiness", async () => {
    assertProblem(await call(`${gw.url}/nope`), 404, "ROUTE_NOT_FOUND")
    assert.strictEqual((await call(`${gw.url}/health`)).status, 200)
    assert.strictEqual((await call(`${gw.url}/ready`)).status, 200)
    const spec = await call(`${gw.url}/openapi.json`)
    assert.strictEqual(spec.status, 200)
    assert.property(spec.body.paths, `${API}/games/generate-launch-url`)
  })

  it("never writes a password, private key, encryptionKey, API key secret or bearer token to its logs", () => {
    assert.isAbove(secrets.length, 10)
    const output = gw.output()
    assert.isAbove(output.length, 0)
    for (const secret of secrets) assert.notInclude(output, secret)
  })

  it("logs one JSON line per request — method, route, status, duration, request id — and echoes the request id", async () => {
    const answer = await call(`${gw.url}${API}/games?limit=1&search=private-query-text`, {
      headers: { "x-request-id": "req-abc.123" }
    })
    assert.strictEqual(answer.headers.get("x-request-id"), "req-abc.123")
    const fresh = await call(`${gw.url}/health`, { headers: { "x-request-id": "not a plain token" } })
    assert.match(fresh.headers.get("x-request-id") ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    await new Promise((r) => setTimeout(r, 100))
    const lines = gw.output().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
    const logged = lines.filter((line) => line.message === "request" && line.requestId === "req-abc.123")
    assert.strictEqual(logged.length, 1)
    assert.include(logged[0], { level: "INFO", method: "GET", route: `${API}/games`, status: 401 })
    assert.isAtLeast(logged[0].durationMs, 0)
    assert.isFalse(Number.isNaN(Date.parse(logged[0].time)))
    assert.notInclude(gw.output(), "private-query-text")
  })
})
