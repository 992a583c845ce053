import { Redacted } from "effect"
import { SignJWT } from "jose"
import { type Answer, call as fetchAnswer } from "@gateway/adapters-http/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  audience,
  issuer,
  liveKey,
  noDetailsKey,
  secret,
  start,
  type Started,
  suspendedKey,
  testKey,
  token,
  unsignedToken
} from "./support.ts"

const base = "/api/v1.1/operator-api"
let server: Started
let scoped: Started
const bodies: Array<string> = []

beforeAll(async () => {
  server = await start()
  scoped = await start({ secret: Redacted.make(secret), issuer, audience })
})
afterAll(async () => {
  await server.dispose()
  await scoped.dispose()
})

/** Calls `target` with the shared test client, keeping every body for the secrets check. */
const call = async (path: string, init: RequestInit = {}, target: Started = server): Promise<Answer> => {
  const answer = await fetchAnswer(target.url + path, init)
  bodies.push(answer.text)
  return answer
}

const expectProblem = (
  result: Answer,
  status: number,
  code: string,
  detail?: RegExp
) => {
  expect(result.status).toBe(status)
  expect(result.headers.get("content-type")).toBe("application/problem+json")
  expect(Object.keys(result.body).sort()).toEqual(["code", "detail", "status", "success", "title"])
  expect(result.body).toMatchObject({ success: false, status, code })
  expect(typeof result.body.title).toBe("string")
  if (detail !== undefined) expect(result.body.detail).toMatch(detail)
}

const key = { "sv-api-key": liveKey }
const admin = async (scope?: string) => ({
  authorization: `Bearer ${await token(scope === undefined ? {} : { scope })}`,
  "content-type": "application/json"
})
const launch = (query: string) => call(`${base}/games/generate-launch-url?${query}`, { headers: key })
const valid = "gameId=odd-even&playerId=p-1&sessionId=s-1"
const createBody = (email: string) => JSON.stringify({ countryCodes: ["ET"], companyName: "Acme", email, providerId: 3 })

describe("games list", () => {
  it("answers {data, meta} with the defaults", async () => {
    const { status, body } = await call(`${base}/games`, { headers: key })
    expect(status).toBe(200)
    expect(body.data.map((g: { id: string }) => g.id)).toEqual(["lotto", "mega-ten", "odd-even"])
    expect(body.meta).toEqual({ currentPage: 1, limit: 20, nextPage: 0, prevPage: 0, totalElements: 3, totalPage: 1 })
  })

  it("accepts searchFields repeated or comma separated", async () => {
    for (const q of ["searchFields=id&searchFields=name", "searchFields=id,name", "searchFields=id"]) {
      const { status, body } = await call(`${base}/games?search=MEGA&${q}`, { headers: key })
      expect(status).toBe(200)
      expect(body.data.map((g: { id: string }) => g.id)).toEqual(["mega-ten"])
    }
    const byName = await call(`${base}/games?search=odd%20even&searchFields=name&sortOrder=DESC&limit=1`, { headers: key })
    expect(byName.body.data.map((g: { id: string }) => g.id)).toEqual(["odd-even"])
  })

  it.each([
    ["page=0", "page"],
    ["page=abc", "page"],
    ["page=1.5", "page"],
    ["limit=0", "limit"],
    ["limit=101", "limit: must be ≤ 100"],
    ["limit=1&limit=2", "limit"],
    ["sortBy=price", "sortBy"],
    ["sortOrder=asc", "sortOrder"],
    ["searchFields=name,price", "searchFields"],
    ["searchFields=", "searchFields"],
    [`search=${"x".repeat(129)}`, "search"]
  ])("%s is 400 naming the field", async (query, field) => {
    expectProblem(await call(`${base}/games?${query}`, { headers: key }), 400, "VALIDATION_FAILED", new RegExp(`^${field}`))
  })

  it("refuses a missing, malformed, unknown or suspended key", async () => {
    expectProblem(await call(`${base}/games`), 401, "UNAUTHORIZED", /missing/)
    expectProblem(await call(`${base}/games`, { headers: { "sv-api-key": "nodots" } }), 401, "UNAUTHORIZED", /malformed/)
    expectProblem(await call(`${base}/games`, { headers: { "sv-api-key": "a..b" } }), 401, "UNAUTHORIZED")
    const unknown = `sv_live.${"Z".repeat(43)}.unknown12`
    expectProblem(await call(`${base}/games`, { headers: { "sv-api-key": unknown } }), 401, "UNAUTHORIZED", /unknown/)
    expectProblem(await call(`${base}/games`, { headers: { "sv-api-key": suspendedKey } }), 403, "FORBIDDEN")
  })
})

describe("generate-launch-url", () => {
  it("answers {success, url} with cache-control: no-store", async () => {
    const { status, headers, body } = await launch(valid)
    expect(status).toBe(200)
    expect(headers.get("cache-control")).toBe("no-store")
    expect(body.success).toBe(true)
    expect(body.url).toMatch(/^https:\/\/games\.example\/play\/odd-even\?token=/)
    const claims = JSON.parse(decodeURIComponent(new URL(body.url).searchParams.get("token") ?? ""))
    expect(claims).toMatchObject({ sub: "p-1", sid: "s-1", gid: "odd-even", mode: "real", cur: "ETB", lobby: true })
    const demo = await launch(`${valid}&mode=demo&disableGameLobby=true&currency=ETB`)
    expect(JSON.parse(decodeURIComponent(new URL(demo.body.url).searchParams.get("token") ?? ""))).toMatchObject({
      mode: "demo",
      lobby: false
    })
    const page = await launch(`${valid}&language=fr-CA&lobbyUrl=${encodeURIComponent("https://casino.example/lobby?x=1")}&realityCheckMinutes=30`)
    expect(JSON.parse(decodeURIComponent(new URL(page.body.url).searchParams.get("token") ?? ""))).toMatchObject({
      lang: "fr",
      lurl: "https://casino.example/lobby?x=1",
      rcm: 30
    })
    const unknown = await launch(`${valid}&language=de`)
    expect(JSON.parse(decodeURIComponent(new URL(unknown.body.url).searchParams.get("token") ?? ""))).toMatchObject({ lang: "en" })
  })

  it.each([
    ["playerId=p&sessionId=s", "gameId"],
    ["gameId=odd-even&sessionId=s", "playerId"],
    ["gameId=odd-even&playerId=p", "sessionId"],
    [`gameId=odd-even&playerId=p&sessionId=${"s".repeat(129)}`, "sessionId"],
    ["gameId=&playerId=p&sessionId=s", "gameId"],
    [`${valid}&mode=free`, "mode"],
    [`${valid}&disableGameLobby=yes`, "disableGameLobby"],
    [`${valid}&currency=etb`, "currency"],
    [`${valid}&currency=XXX`, "currency"],
    [`${valid}&lobbyUrl=javascript:alert(1)`, "lobbyUrl"],
    [`${valid}&lobbyUrl=${"https://a.example/" + "x".repeat(2048)}`, "lobbyUrl"],
    [`${valid}&language=${"x".repeat(40)}`, "language"],
    [`${valid}&language=fr<script>`, "language"],
    [`${valid}&realityCheckMinutes=4`, "realityCheckMinutes"],
    [`${valid}&realityCheckMinutes=121`, "realityCheckMinutes"],
    [`${valid}&realityCheckMinutes=7.5`, "realityCheckMinutes"]
  ])("%s is 400 naming the field", async (query, field) => {
    expectProblem(await launch(query), 400, "VALIDATION_FAILED", new RegExp(`^${field}`))
  })

  it("maps every launch failure to its status and code", async () => {
    expectProblem(await launch("gameId=mega-11&playerId=p&sessionId=s"), 404, "GAME_NOT_FOUND", /mega-11/)
    expectProblem(await launch("gameId=odd-even&playerId=slow&sessionId=s"), 504, "OPERATOR_TIMEOUT")
    expectProblem(await launch("gameId=odd-even&playerId=broken&sessionId=s"), 502, "OPERATOR_BAD_RESPONSE")
    expectProblem(await launch("gameId=odd-even&playerId=blocked&sessionId=s"), 422, "PLAYER_REJECTED")
    expectProblem(await launch("gameId=odd-even&playerId=dollar&sessionId=s"), 422, "CURRENCY_MISMATCH")
    expectProblem(await launch(`${valid}&currency=USD`), 422, "CURRENCY_MISMATCH")
    const noDetails = { "sv-api-key": noDetailsKey }
    expectProblem(
      await call(`${base}/games/generate-launch-url?${valid}`, { headers: noDetails }),
      422,
      "DETAILS_URL_NOT_SET"
    )
  })

  it("lets an sv_test key launch demo mode only: real mode is 403 before anything is asked", async () => {
    const test = { "sv-api-key": testKey }
    const real = await call(`${base}/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s&mode=real`, { headers: test })
    expectProblem(real, 403, "FORBIDDEN", /sv_test key launches demo mode only/)
    const demo = await call(`${base}/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s&mode=demo`, { headers: test })
    expect(demo.status).toBe(200)
  })

  it("answers a defect 500 INTERNAL_ERROR with a generic detail", async () => {
    const crashed = await launch("gameId=odd-even&playerId=crash&sessionId=s")
    expectProblem(crashed, 500, "INTERNAL_ERROR", /^internal error$/)
    expect(crashed.text).not.toMatch(/SELECT|hunter2/)
  })

  it("checks the key before anything else", async () => {
    expectProblem(await call(`${base}/games/generate-launch-url?mode=bad`), 401, "UNAUTHORIZED")
    expectProblem(
      await call(`${base}/games/generate-launch-url?${valid}`, { headers: { "sv-api-key": "sv_live.x" } }),
      401,
      "UNAUTHORIZED"
    )
    const unknown = { "sv-api-key": `sv_live.${"Z".repeat(43)}.unknown12` }
    expectProblem(await call(`${base}/games/generate-launch-url?${valid}`, { headers: unknown }), 401, "UNAUTHORIZED")
    expectProblem(
      await call(`${base}/games/generate-launch-url?${valid}`, { headers: { "sv-api-key": suspendedKey } }),
      403,
      "FORBIDDEN"
    )
  })
})

describe("create", () => {
  it("answers 201 with every required field of the seed's Merchant", async () => {
    const { status, body } = await call(`${base}/create`, {
      method: "POST",
      headers: await admin(),
      body: createBody("new@example.com")
    })
    expect(status).toBe(201)
    for (
      const field of [
        "id", "createdAt", "updatedAt", "email", "password", "accountStatus", "clientId", "companyName", "country",
        "currency", "encryptionKey", "hashedClientId", "phoneNumber", "privateKey", "providerId", "publicKey",
        "MerchantSettings", "isDefaultPassword", "otpToken", "verifiedEmail"
      ]
    ) expect(body).toHaveProperty(field)
    expect(body).toMatchObject({ country: "ET", currency: "ETB", accountStatus: "active", phoneNumber: "", providerId: 3 })
    expect(body.MerchantSettings).toHaveProperty("id")
    expect(typeof body.createdAt).toBe("string")
  })

  it("refuses a duplicate e-mail in any case with 409 EMAIL_TAKEN", async () => {
    const headers = await admin()
    expectProblem(
      await call(`${base}/create`, { method: "POST", headers, body: createBody("OPS@example.com") }),
      409,
      "EMAIL_TAKEN"
    )
  })

  it("answers 400 for bad bodies, malformed JSON and 415 for another media type", async () => {
    const headers = await admin()
    const post = (body: string, extra: Record<string, string> = {}) =>
      call(`${base}/create`, { method: "POST", headers: { ...headers, ...extra }, body })
    expectProblem(await post("{not json"), 400, "VALIDATION_FAILED", /JSON/)
    expectProblem(await post(""), 400, "VALIDATION_FAILED")
    expectProblem(await post(JSON.stringify({ companyName: "A", email: "a@b.co", providerId: 1 })), 400, "VALIDATION_FAILED", /^countryCodes/)
    expectProblem(await post(JSON.stringify({ countryCodes: ["XX"], companyName: "A", email: "a@b.co", providerId: 1 })), 400, "VALIDATION_FAILED", /^countryCodes\[0\]/)
    expectProblem(await post(JSON.stringify({ countryCodes: ["ET"], companyName: "A", email: "nope", providerId: 1 })), 400, "VALIDATION_FAILED", /^email/)
    expectProblem(await post(JSON.stringify({ countryCodes: ["ET"], companyName: "A", email: "a@b.co", providerId: -1 })), 400, "VALIDATION_FAILED", /^providerId/)
    expectProblem(await post("{}", { "content-type": "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE")
  })
})

describe("bearer authentication", () => {
  const create = (headers: Record<string, string>, target: Started = server) =>
    call(`${base}/create`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: createBody(`b${Math.random()}@example.com`)
    }, target)

  it("refuses missing, garbage, expired, forged and unsigned tokens with 401", async () => {
    expectProblem(await create({}), 401, "UNAUTHORIZED", /missing/)
    expectProblem(await create({ authorization: "Bearer garbage" }), 401, "UNAUTHORIZED")
    expectProblem(await create({ authorization: "Basic dXNlcjpwYXNz" }), 401, "UNAUTHORIZED")
    expectProblem(await create({ authorization: `Bearer ${await token({ expiresIn: -60 })}` }), 401, "UNAUTHORIZED", /expired/)
    expectProblem(await create({ authorization: `Bearer ${await token({ exp: false })}` }), 401, "UNAUTHORIZED")
    const forged = await token({ key: "another-secret-that-is-at-least-32-characters" })
    expectProblem(await create({ authorization: `Bearer ${forged}` }), 401, "UNAUTHORIZED")
    expectProblem(await create({ authorization: `Bearer ${unsignedToken()}` }), 401, "UNAUTHORIZED")
    expectProblem(await create({ "access-token": unsignedToken() }), 401, "UNAUTHORIZED")
  })

  it("refuses tokens that live longer than AUTH_MAX_TOKEN_LIFETIME_SECONDS (default 24 h) or were issued in the future", async () => {
    const now = Math.floor(Date.now() / 1000)
    const signed = (claims: { iat?: number; exp: number }) =>
      new SignJWT({ scope: "read:users write:users", ...claims }).setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode(secret))
    const read = (headers: Record<string, string>) => call(`${base}/merchants/7`, { headers })
    const bearer = async (claims: { iat?: number; exp: number }) => ({ authorization: `Bearer ${await signed(claims)}` })
    expectProblem(await read(await bearer({ iat: now, exp: 1_000_000_000_000 })), 401, "UNAUTHORIZED", /lifetime/)
    expectProblem(await read(await bearer({ exp: 1_000_000_000_000 })), 401, "UNAUTHORIZED", /lifetime/)
    expectProblem(await read(await bearer({ iat: now, exp: now + 25 * 3600 })), 401, "UNAUTHORIZED", /lifetime/)
    expectProblem(await read(await bearer({ iat: now - 30 * 3600, exp: now + 600 })), 401, "UNAUTHORIZED", /lifetime/)
    expectProblem(await read(await bearer({ iat: now + 3600, exp: now + 7200 })), 401, "UNAUTHORIZED")
    expect((await read(await bearer({ iat: now, exp: now + 23 * 3600 }))).status).toBe(200)
    expect((await read(await bearer({ exp: now + 600 }))).status).toBe(200)
  })

  it("accepts the access-token header as an alias", async () => {
    expect((await create({ "access-token": await token() })).status).toBe(201)
  })

  it("answers 403 without the scope: write:users for writes, read:users for reads", async () => {
    expectProblem(await create({ authorization: `Bearer ${await token({ scope: "read:users" })}` }), 403, "FORBIDDEN", /write:users/)
    const reader = { authorization: `Bearer ${await token({ scope: "read:users" })}` }
    const writer = { authorization: `Bearer ${await token({ scope: "write:users" })}` }
    expect((await call(`${base}/merchants/7`, { headers: reader })).status).toBe(200)
    expectProblem(await call(`${base}/merchants/7`, { headers: writer }), 403, "FORBIDDEN", /read:users/)
  })

  it("checks issuer and audience when configured", async () => {
    const good = await token({ issuer, audience })
    expect((await create({ authorization: `Bearer ${good}` }, scoped)).status).toBe(201)
    expectProblem(await create({ authorization: `Bearer ${await token({ issuer: "https://evil", audience })}` }, scoped), 401, "UNAUTHORIZED")
    expectProblem(await create({ authorization: `Bearer ${await token({ issuer, audience: "other" })}` }, scoped), 401, "UNAUTHORIZED")
    expectProblem(await create({ authorization: `Bearer ${await token()}` }, scoped), 401, "UNAUTHORIZED")
  })
})

describe("administration", () => {
  it("reads a merchant without secrets, 404 for an unknown one, 400 for a bad id", async () => {
    const headers = await admin()
    const { status, body } = await call(`${base}/merchants/7`, { headers })
    expect(status).toBe(200)
    expect(body.id).toBe(7)
    for (const secretField of ["password", "privateKey", "encryptionKey", "otpToken"]) expect(body).not.toHaveProperty(secretField)
    expectProblem(await call(`${base}/merchants/999`, { headers }), 404, "MERCHANT_NOT_FOUND")
    expectProblem(await call(`${base}/merchants/abc`, { headers }), 400, "VALIDATION_FAILED", /^id/)
  })

  it("lists merchants newest first without secrets: read:users, search literal, status filter, 400 for bad paging", async () => {
    const headers = await admin("read:users")
    const list = (query: string, init: RequestInit = { headers }) => call(`${base}/merchants?${query}`, init)
    const page = await list("limit=2")
    expect(page.status, page.text).toBe(200)
    expect(page.body.meta).toMatchObject({ currentPage: 1, limit: 2, prevPage: 0 })
    expect(page.body.data.length).toBe(2)
    const ids = page.body.data.map((m: { id: number }) => m.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(page.body.data[0]).toHaveProperty("MerchantSettings")
    for (const field of ["password", "privateKey", "encryptionKey", "otpToken", "otpHash", "passwordHash"]) {
      expect(page.text).not.toContain(field)
    }
    const found = await list("search=NODETAILS%40Example")
    expect(found.body.data.map((m: { id: number }) => m.id)).toEqual([9])
    expect(found.body.meta).toMatchObject({ totalElements: 1, totalPage: 1, nextPage: 0 })
    expect((await list("search=%25")).body.meta.totalElements).toBe(0)
    const suspended = await list("status=suspended&limit=100")
    expect(suspended.status).toBe(200)
    for (const merchant of suspended.body.data) expect(merchant.accountStatus).toBe("suspended")
    expectProblem(await list("status=bogus"), 400, "VALIDATION_FAILED", /status/)
    expectProblem(await list("limit=0"), 400, "VALIDATION_FAILED", /limit/)
    expectProblem(await list("limit=101"), 400, "VALIDATION_FAILED", /limit/)
    expectProblem(await list("page=0"), 400, "VALIDATION_FAILED", /page/)
    expectProblem(await list(`search=${"x".repeat(129)}`), 400, "VALIDATION_FAILED", /search/)
    expectProblem(await list("", { headers: await admin("write:users") }), 403, "FORBIDDEN", /read:users/)
    expectProblem(await list("", {}), 401, "UNAUTHORIZED")
  })

  it("changes settings and refuses unordered stakes naming minimumStake", async () => {
    const headers = await admin()
    const put = (body: unknown) => call(`${base}/merchants/9/settings`, { method: "PUT", headers, body: JSON.stringify(body) })
    const ok = await put({ minimumStake: 1, maximumStake: 100, webhookUrl: "https://ops.example/hook", isSeperateWebhookUrl: false })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ minimumStake: 1, maximumStake: 100, webhookUrl: "https://ops.example/hook" })
    expectProblem(await put({ minimumStake: 500 }), 400, "VALIDATION_FAILED", /^minimumStake/)
    expectProblem(await put({ webhookUrl: "ftp://x" }), 400, "VALIDATION_FAILED", /^webhookUrl/)
    expect((await put({ webhookUrl: null })).body).not.toHaveProperty("webhookUrl")
  })

  it("keeps stake limits exact: no more fraction digits than the currency has, a number or a decimal string", async () => {
    const headers = await admin()
    const put = (body: unknown) => call(`${base}/merchants/9/settings`, { method: "PUT", headers, body: JSON.stringify(body) })
    expectProblem(await put({ maximumStake: 0.125 }), 400, "VALIDATION_FAILED", /^maximumStake: .*ETB.*2 fraction digits/)
    expectProblem(await put({ minimumStake: "0.125" }), 400, "VALIDATION_FAILED", /^minimumStake: /)
    expectProblem(await put({ maximumStake: 1e20 }), 400, "VALIDATION_FAILED", /^maximumStake: /)
    expectProblem(await put({ maximumStake: 10000000000000 }), 400, "VALIDATION_FAILED", /^maximumStake: must be at most 9999999999999\.99/)
    for (const bad of ["1e3", "1,5", "-1", "0", true]) {
      expectProblem(await put({ maximumStake: bad }), 400, "VALIDATION_FAILED", /^maximumStake/)
    }
    const ok = await put({ minimumStake: "0.10", maximumStake: 9999999999999.99 })
    expect(ok.status).toBe(200)
    expect(ok.text).toContain('"minimumStake":0.1,')
    expect(ok.text).toContain('"maximumStake":9999999999999.99')
    expect((await put({ minimumStake: null, maximumStake: null })).body).not.toHaveProperty("maximumStake")
  })

  it("moves status, and closed is final (409 STATUS_CHANGE_REFUSED)", async () => {
    const headers = await admin()
    const patch = (accountStatus: string) =>
      call(`${base}/merchants/8/status`, { method: "PATCH", headers, body: JSON.stringify({ accountStatus }) })
    expectProblem(await patch("deleted"), 400, "VALIDATION_FAILED", /^accountStatus/)
    expect((await patch("closed")).body.accountStatus).toBe("closed")
    expectProblem(await patch("active"), 409, "STATUS_CHANGE_REFUSED")
  })

  it("refuses bad rotations 400 naming the field, secrets to read-only tokens 403, unknown merchants 404", async () => {
    const headers = await admin()
    const rotate = (body: unknown, id = 7, h: Record<string, string> = headers) =>
      call(`${base}/merchants/${id}/secrets/rotate`, { method: "POST", headers: h, body: JSON.stringify(body) })
    expectProblem(await rotate({ secret: "password" }), 400, "VALIDATION_FAILED", /^secret/)
    expectProblem(await rotate({ secret: "encryptionKey", overlapSeconds: -1 }), 400, "VALIDATION_FAILED", /^overlapSeconds/)
    expectProblem(await rotate({ secret: "encryptionKey", overlapSeconds: 604801 }), 400, "VALIDATION_FAILED", /^overlapSeconds/)
    expectProblem(await rotate({ secret: "signingKey", extra: 1 }), 400, "VALIDATION_FAILED", /extra/)
    expectProblem(await rotate({ secret: "signingKey" }, 7, await admin("read:users")), 403, "FORBIDDEN", /write:users/)
    expectProblem(await rotate({ secret: "signingKey" }, 999), 404, "MERCHANT_NOT_FOUND")
    const reveal = (id: number, h: Record<string, string>) => call(`${base}/merchants/${id}/secrets/reveal`, { method: "POST", headers: h })
    expectProblem(await reveal(7, await admin("read:users")), 403, "FORBIDDEN")
    expectProblem(await reveal(999, headers), 404, "MERCHANT_NOT_FOUND")
    const audit = (query: string) => call(`${base}/merchants/7/audit${query}`, { headers })
    expectProblem(await audit("?limit=0"), 400, "VALIDATION_FAILED", /^limit/)
    expectProblem(await audit("?page=x"), 400, "VALIDATION_FAILED", /^page/)
    expectProblem(await call(`${base}/merchants/7/audit`, { headers: await admin("write:users") }), 403, "FORBIDDEN", /read:users/)
  })

  it("issues a key that works at once and revokes it", async () => {
    const headers = await admin()
    const issued = await call(`${base}/merchants/9/api-keys`, { method: "POST", headers, body: JSON.stringify({ prefix: "sv_test" }) })
    expect(issued.status).toBe(201)
    expect(issued.body).toMatchObject({ prefix: "sv_test" })
    expect(issued.body.apiKey).toBe(`sv_test.${issued.body.apiKey.split(".")[1]}.${issued.body.slug}`)
    expect((await call(`${base}/games`, { headers: { "sv-api-key": issued.body.apiKey } })).status).toBe(200)
    const empty = await call(`${base}/merchants/9/api-keys`, { method: "POST", headers: { authorization: headers.authorization } })
    expect(empty.status, empty.text).toBe(201)
    expect(empty.body.prefix).toBe("sv_live")
    const revoke = await call(`${base}/merchants/9/api-keys/${issued.body.slug}`, { method: "DELETE", headers })
    expect(revoke.status).toBe(204)
    expectProblem(await call(`${base}/games`, { headers: { "sv-api-key": issued.body.apiKey } }), 401, "UNAUTHORIZED")
    expectProblem(await call(`${base}/merchants/9/api-keys/${issued.body.slug}`, { method: "DELETE", headers }), 404, "API_KEY_NOT_FOUND")
    expectProblem(await call(`${base}/merchants/999/api-keys`, { method: "POST", headers }), 404, "MERCHANT_NOT_FOUND")
  })

  it("lets an operator read and change its own settings with its key", async () => {
    const read = await call(`${base}/settings`, { headers: key })
    expect(read.status).toBe(200)
    expect(read.body.userDetailsUrl).toBe("https://ops.example/details")
    const changed = await call(`${base}/settings`, { method: "PUT", headers: { ...key, "content-type": "application/json" }, body: JSON.stringify({ hideBalance: true }) })
    expect(changed.body).toMatchObject({ hideBalance: true, userDetailsUrl: "https://ops.example/details" })
    expectProblem(await call(`${base}/settings`), 401, "UNAUTHORIZED")
  })

  it("upserts and retires games; generate-launch-url is not a game id", async () => {
    const headers = await admin()
    const game = { name: "Dice", releaseDate: "2025-02-03", baseLaunchUrl: "https://games.example/dice", category: 4, imageUrl: "https://games.example/dice.png" }
    const put = await call(`${base}/games/dice`, { method: "PUT", headers, body: JSON.stringify(game) })
    expect(put.status).toBe(200)
    expect(put.body).toEqual({ id: "dice", ...game })
    expect((await launch("gameId=dice&playerId=p&sessionId=s")).status).toBe(200)
    expect((await call(`${base}/games/dice`, { method: "DELETE", headers })).status).toBe(204)
    expectProblem(await launch("gameId=dice&playerId=p&sessionId=s"), 404, "GAME_NOT_FOUND")
    expectProblem(await call(`${base}/games/dice`, { method: "DELETE", headers }), 404, "GAME_NOT_FOUND")
    expectProblem(await call(`${base}/games/generate-launch-url`, { method: "PUT", headers, body: JSON.stringify(game) }), 400, "VALIDATION_FAILED", /^id/)
    expectProblem(await call(`${base}/games/Bad_Id`, { method: "PUT", headers, body: JSON.stringify(game) }), 400, "VALIDATION_FAILED", /^id/)
    expectProblem(await call(`${base}/games/x`, { method: "PUT", headers, body: JSON.stringify({ ...game, category: "one" }) }), 400, "VALIDATION_FAILED", /^category/)
  })

  it("records every change of the catalogue in its audit log: who, before and after; an unchanged save records nothing", async () => {
    const headers = await admin()
    const game = { name: "Crash", releaseDate: "2025-03-04", baseLaunchUrl: "https://games.example/crash", category: 4, imageUrl: "https://games.example/crash.png" }
    const put = (body: unknown) => call(`${base}/games/crash`, { method: "PUT", headers, body: JSON.stringify(body) })
    expect((await put(game)).status).toBe(200)
    expect((await put(game)).status).toBe(200)
    expect((await put({ ...game, name: "Crash Deluxe" })).status).toBe(200)
    expect((await call(`${base}/games/crash`, { method: "DELETE", headers })).status).toBe(204)
    const read = await admin("read:users")
    const audit = await call(`${base}/audit?limit=100`, { headers: read })
    expect(audit.status, audit.text).toBe(200)
    const crash = audit.body.data.filter((e: { before: unknown; after: { id?: string } | null }) => e.after?.id === "crash")
    expect(crash.map((e: { action: string; before: unknown; after: unknown }) => [e.action, e.before, e.after])).toEqual([
      ["game.retire", { id: "crash", listed: true }, { id: "crash", listed: false }],
      ["game.upsert", { id: "crash", name: "Crash" }, { id: "crash", name: "Crash Deluxe" }],
      ["game.upsert", null, { id: "crash", ...game }]
    ])
    expect(crash.every((e: { merchantId: unknown; actor: string }) => e.merchantId === null && e.actor === "admin-1")).toBe(true)
    const merchant = await call(`${base}/merchants/7/audit?limit=100`, { headers: read })
    expect(merchant.body.data.some((e: { action: string }) => e.action.startsWith("game.")), "a merchant's log has no catalogue entry").toBe(false)
    expectProblem(await call(`${base}/audit`, { headers: await admin("write:users") }), 403, "FORBIDDEN", /read:users/)
    expectProblem(await call(`${base}/audit?page=1002`, { headers: read }), 400, "VALIDATION_FAILED", /^page/)
  })
})

describe("routing, probes and documents", () => {
  it("answers unknown routes 404 ROUTE_NOT_FOUND and wrong methods 405 with allow", async () => {
    expectProblem(await call("/nope"), 404, "ROUTE_NOT_FOUND")
    expectProblem(await call(`${base}/unknown`, { headers: key }), 404, "ROUTE_NOT_FOUND")
    const wrong = await call(`${base}/games/odd-even`, { headers: key })
    expectProblem(wrong, 405, "METHOD_NOT_ALLOWED")
    expect(wrong.headers.get("allow")).toBe("PUT, DELETE")
    expectProblem(await call("/health", { method: "POST" }), 405, "METHOD_NOT_ALLOWED")
  })

  it("answers /health, and /ready 200 or 503 by the Readiness check", async () => {
    expect((await call("/health")).body).toEqual({ status: "ok" })
    expect((await call("/ready")).status).toBe(200)
    server.ready.value = false
    expectProblem(await call("/ready"), 503, "NOT_READY")
    server.ready.value = true
  })

  it("serves OpenAPI 3.1 with every path, both security schemes and the error codes", async () => {
    const { body } = await call("/openapi.json")
    expect(body.openapi).toMatch(/^3\.1/)
    expect(body.info).toMatchObject({ title: "Operator Gateway", version: "1.1.0" })
    expect(Object.keys(body.paths).sort()).toEqual([
      "/.well-known/jwks.json",
      "/api/v1.1/backoffice/api-keys",
      "/api/v1.1/backoffice/api-keys/{slug}",
      "/api/v1.1/backoffice/audit",
      "/api/v1.1/backoffice/deliveries",
      "/api/v1.1/backoffice/deliveries/{deliveryId}",
      "/api/v1.1/backoffice/deliveries/{deliveryId}/redeliver",
      "/api/v1.1/backoffice/invitation/accept",
      "/api/v1.1/backoffice/login",
      "/api/v1.1/backoffice/logout",
      "/api/v1.1/backoffice/me",
      "/api/v1.1/backoffice/password",
      "/api/v1.1/backoffice/password-reset",
      "/api/v1.1/backoffice/password-reset/confirm",
      "/api/v1.1/backoffice/revenue-share",
      "/api/v1.1/backoffice/rounds",
      "/api/v1.1/backoffice/secrets/reveal",
      "/api/v1.1/backoffice/secrets/rotate",
      "/api/v1.1/backoffice/settings",
      "/api/v1.1/backoffice/summary",
      "/api/v1.1/backoffice/summary.csv",
      "/api/v1.1/backoffice/totp",
      "/api/v1.1/backoffice/totp/confirm",
      "/api/v1.1/backoffice/totp/remove",
      "/api/v1.1/backoffice/users",
      "/api/v1.1/backoffice/users/{userId}",
      "/api/v1.1/backoffice/verify-email",
      "/api/v1.1/backoffice/verify-email/resend",
      "/api/v1.1/backoffice/webhook-test",
      "/api/v1.1/game-api/autoplay",
      "/api/v1.1/game-api/fairness",
      "/api/v1.1/game-api/games",
      "/api/v1.1/game-api/games/{gameId}/rules",
      "/api/v1.1/game-api/recall",
      "/api/v1.1/game-api/rounds",
      "/api/v1.1/game-api/rounds/{roundId}",
      "/api/v1.1/game-api/sessions",
      "/api/v1.1/game-api/sessions/resume",
      "/api/v1.1/operator-api/audit",
      "/api/v1.1/operator-api/create",
      "/api/v1.1/operator-api/free-rounds",
      "/api/v1.1/operator-api/free-rounds/{id}",
      "/api/v1.1/operator-api/games",
      "/api/v1.1/operator-api/games/generate-launch-url",
      "/api/v1.1/operator-api/games/{id}",
      "/api/v1.1/operator-api/launch-keys/rotate",
      "/api/v1.1/operator-api/merchants",
      "/api/v1.1/operator-api/merchants/{id}",
      "/api/v1.1/operator-api/merchants/{id}/api-keys",
      "/api/v1.1/operator-api/merchants/{id}/api-keys/{slug}",
      "/api/v1.1/operator-api/merchants/{id}/audit",
      "/api/v1.1/operator-api/merchants/{id}/revenue-share",
      "/api/v1.1/operator-api/merchants/{id}/secrets/reveal",
      "/api/v1.1/operator-api/merchants/{id}/secrets/rotate",
      "/api/v1.1/operator-api/merchants/{id}/settings",
      "/api/v1.1/operator-api/merchants/{id}/status",
      "/api/v1.1/operator-api/merchants/{id}/webhook-deliveries",
      "/api/v1.1/operator-api/merchants/{id}/webhook-deliveries/{deliveryId}/redeliver",
      "/api/v1.1/operator-api/merchants/{id}/webhook-test",
      "/api/v1.1/operator-api/reports/summary",
      "/api/v1.1/operator-api/revenue-share",
      "/api/v1.1/operator-api/rounds",
      "/api/v1.1/operator-api/sessions/terminate",
      "/api/v1.1/operator-api/settings",
      "/api/v1.1/operator-api/transactions/{transactionId}",
      "/backoffice",
      "/health",
      "/metrics",
      "/play/{gameId}",
      "/ready",
      "/rounds/{roundId}",
      "/static/games/{file}",
      "/static/round-details.css",
      "/static/round-details.js"
    ])
    expect(body.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "Bearer" })
    expect(body.components.securitySchemes.svApiKey).toMatchObject({ type: "apiKey", in: "header", name: "sv-api-key" })
    expect(body.components.securitySchemes.session).toMatchObject({ type: "apiKey", in: "cookie", name: "gateway_backoffice" })
    expect(body.paths["/api/v1.1/backoffice/login"].post.responses["401"].description).toMatch(/INVALID_CREDENTIALS/)
    expect(body.paths["/api/v1.1/backoffice/me"].get.responses["403"].description).toMatch(/PASSWORD_CHANGE_REQUIRED/)
    const launchOp = body.paths["/api/v1.1/operator-api/games/generate-launch-url"].get
    expect(launchOp.security).toEqual([{ svApiKey: [] }])
    expect(Object.keys(launchOp.responses).sort()).toEqual(["200", "400", "401", "403", "404", "422", "429", "502", "503", "504"])
    expect(launchOp.responses["503"].description).toMatch(/OPERATOR_UNAVAILABLE/)
    expect(Object.keys(launchOp.responses["503"].headers ?? {})).toEqual(["retry-after"])
    expect(launchOp.responses["429"].description).toMatch(/RATE_LIMITED/)
    expect(Object.keys(launchOp.responses["429"].headers ?? {})).toEqual(["retry-after"])
    expect(launchOp.responses["422"].description).toMatch(/CURRENCY_MISMATCH.*PLAYER_REJECTED.*DETAILS_URL_NOT_SET/)
    expect(Object.keys(launchOp.responses["404"].content)).toEqual(["application/problem+json"])
    expect(body.paths["/api/v1.1/operator-api/create"].post.security).toEqual([{ bearer: [] }, { accessToken: [] }])
    expect(body.paths["/api/v1.1/operator-api/create"].post.responses["409"].description).toMatch(/EMAIL_TAKEN/)
  })

  it("serves the docs page without a CDN, its script from here", async () => {
    const { status, text } = await call("/docs")
    expect(status).toBe(200)
    expect(text).toContain("Operator Gateway")
    expect(text).not.toMatch(/<script[^>]+src=["']https?:/)
    expect(text).toContain(`data-url="/openapi.json"`)
    expect(text).toContain(`<script src="/docs/scalar.js"></script>`)
    // The page holds no script of its own: Scalar reads its configuration from the element.
    expect(text.match(/<script[^>]*>([^<]*)<\/script>/g)?.every((tag) => tag.endsWith("></script>"))).toBe(true)
    const script = await call("/docs/scalar.js")
    expect(script.status).toBe(200)
    expect(script.text.length).toBeGreaterThan(1_000_000)
    expect(script.text).toContain("createApiReference")
    // The reference's own style sheet, after Scalar's: its mends to the layout are there and served as CSS.
    expect(text).toContain(`<link rel="stylesheet" href="/docs/docs.css" />`)
    const style = await call("/docs/docs.css")
    expect(style.status).toBe(200)
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8")
    expect(style.text).toMatch(/\.parameter-item-trigger\s*\{\s*position:\s*relative/)
  })
})

describe("secrets", () => {
  it("never appear in an error body", () => {
    // An error answer is a problem body; `/openapi.json` and `/docs` are not, though their examples show problem
    // bodies and a launch token.
    const isProblem = (b: string) => {
      try {
        return (JSON.parse(b) as { success?: unknown }).success === false
      } catch {
        return false
      }
    }
    const errors = bodies.filter(isProblem)
    expect(errors.length).toBeGreaterThan(20)
    for (const body of errors) {
      expect(body).not.toContain(secret)
      expect(body).not.toContain("A".repeat(43))
      expect(body).not.toContain("B".repeat(43))
      expect(body).not.toContain("generated-password")
      expect(body).not.toMatch(/eyJ[A-Za-z0-9_-]+\./)
      expect(body).not.toMatch(/\bat .*\.ts:\d+/)
    }
  })
})
