import { Redacted } from "effect"
import { request as httpRequest } from "node:http"
import { call as fetchAnswer } from "@gateway/adapters-http/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Merchant } from "@gateway/domain"
import { launchToken, makeClaims, makeMerchant, makeSettings } from "@gateway/domain/testing"
import { liveKey, noDetailsKey, secret, start, type Protections, type Started, token } from "./support.ts"

const base = "/api/v1.1/operator-api"
const servers: Array<Started> = []

const serve = async (protections: Protections) => {
  const server = await start({ secret: Redacted.make(secret) }, protections)
  servers.push(server)
  return server
}
afterAll(() => Promise.all(servers.map((s) => s.dispose())))

const call = (server: Started, path: string, init: RequestInit = {}) => fetchAnswer(server.url + path, init)

const games = (server: Started, key: string) => call(server, `${base}/games`, { headers: { "sv-api-key": key } })

describe("rate limit per API key", () => {
  let limited: Started
  beforeAll(async () => {
    // 0.25 a second: a retry-after of 4 s, which no default stands in for.
    limited = await serve({ rateLimit: { rps: 0.25, burst: 3 } })
  })

  it("answers 429 RATE_LIMITED with retry-after once the burst is spent, on every sv-api-key endpoint", async () => {
    for (let i = 0; i < 3; i++) expect((await games(limited, liveKey)).status).toBe(200)
    const endpoints: Array<[string, RequestInit]> = [
      [`${base}/games`, {}],
      [`${base}/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s`, {}],
      [`${base}/settings`, {}],
      [`${base}/settings`, { method: "PUT", body: "{}", headers: { "content-type": "application/json" } }]
    ]
    for (const [path, init] of endpoints) {
      const { status, headers, body } = await call(limited, path, { ...init, headers: { ...init.headers, "sv-api-key": liveKey } })
      expect(status, path).toBe(429)
      expect(headers.get("content-type")).toBe("application/problem+json")
      expect(body).toMatchObject({ success: false, status: 429, code: "RATE_LIMITED" })
      expect(headers.get("retry-after")).toBe("4")
    }
  })

  it("charges a key only once it verifies: forged keys with its public slug are 401 and cost it nothing", async () => {
    const server = await serve({ rateLimit: { rps: 0.5, burst: 3 } })
    const forged = `sv_live.${"Z".repeat(43)}.activekey1`
    for (let i = 0; i < 10; i++) expect((await games(server, forged)).status).toBe(401)
    for (let i = 0; i < 3; i++) expect((await games(server, liveKey)).status).toBe(200)
    expect((await games(server, liveKey)).status).toBe(429)
    for (let i = 0; i < 3; i++) expect((await games(server, noDetailsKey)).status).toBe(200)
  })

  it("charges a launch one token however it is answered: launched, refused by the domain, or a query that does not decode", async () => {
    const server = await serve({ rateLimit: { rps: 0.5, burst: 3 } })
    const launch = (query: string) =>
      call(server, `${base}/games/generate-launch-url?${query}`, { headers: { "sv-api-key": liveKey } })
    expect((await launch("gameId=odd-even&playerId=p&sessionId=s&mode=demo")).status).toBe(200)
    expect((await launch("gameId=no-such-game&playerId=p&sessionId=s&mode=demo")).status).toBe(404)
    expect((await launch("gameId=odd-even&playerId=p&sessionId=s&mode=bad")).status).toBe(400)
    expect((await launch("gameId=odd-even&playerId=p&sessionId=s&mode=demo")).status).toBe(429)
  })

  it("is described on the sv-api-key scheme in OpenAPI", async () => {
    const { body } = await call(limited, "/openapi.json")
    expect(body.components.securitySchemes.svApiKey.description).toMatch(/429 `RATE_LIMITED` with `retry-after`/)
  })

  it("is off with RATE_LIMIT_RPS 0", async () => {
    const open = await serve({ rateLimit: { rps: 0, burst: 1 } })
    for (let i = 0; i < 10; i++) expect((await games(open, liveKey)).status).toBe(200)
  })
})

describe("failed authentication per client address", () => {
  const from = (address: string, key: string) =>
    call(failing, `${base}/games`, { headers: { "sv-api-key": key, "x-forwarded-for": `10.9.8.7, ${address}` } })
  let failing: Started
  beforeAll(async () => {
    failing = await serve({ rateLimit: { rps: 100, burst: 200, failures: { rps: 0.2, burst: 5 }, trustProxy: true } })
  })

  it("answers 429 once an address has spent its failures (a malformed key without any lookup); other addresses are unaffected", async () => {
    const junk = (n: number) => `sv_live.${"J".repeat(43)}.junkkey${String(n).padStart(3, "0")}`
    for (let n = 0; n < 5; n++) expect((await from("203.0.113.7", junk(n))).status).toBe(401)
    const refused = await from("203.0.113.7", junk(9))
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({ code: "RATE_LIMITED" })
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    const lookups = failing.keyLookups()
    expect((await from("203.0.113.7", "sv_live.not-a-key")).status).toBe(429)
    expect(failing.keyLookups()).toBe(lookups)
    expect((await from("198.51.100.2", junk(10))).status).toBe(401)
    expect((await from("198.51.100.2", liveKey)).status).toBe(200)
  })

  it("charges a refused key on generate-launch-url once to the address", async () => {
    const launch = (key: string) =>
      call(failing, `${base}/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s&mode=demo`, {
        headers: { "sv-api-key": key, "x-forwarded-for": "192.0.2.77" }
      })
    const junk = `sv_live.${"L".repeat(43)}.launchkey1`
    for (let n = 0; n < 5; n++) expect((await launch(junk)).status).toBe(401)
    expect((await launch(junk)).status).toBe(429)
  })

  it("counts made-up session tokens and launch tokens on the game API too", async () => {
    const game = (path: string, init: RequestInit) =>
      call(failing, path, { ...init, headers: { ...init.headers, "x-forwarded-for": "192.0.2.44" } })
    const round = () =>
      game("/api/v1.1/game-api/rounds", {
        method: "POST",
        headers: { authorization: "Bearer made-up-token", "content-type": "application/json" },
        body: JSON.stringify({ stake: "1.00", selection: "odd" })
      })
    const open = () =>
      game("/api/v1.1/game-api/sessions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: "not.a.token" })
      })
    const statuses = [await round(), await open(), await round(), await open(), await round(), await open()]
      .map((answer) => answer.status)
    expect(statuses.slice(0, 5).every((status) => status === 401 || status === 400)).toBe(true)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1)
  })

  it("counts forged launch tokens on the game page: the page still renders, then the address's redemptions are 429", async () => {
    const headers = { "x-forwarded-for": "192.0.2.77" }
    for (let n = 0; n < 5; n++) {
      const page = await call(failing, `/play/odd-even?token=forged.token.${n}`, { headers })
      expect(page.status).toBe(200)
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors *")
    }
    const open = await call(failing, "/api/v1.1/game-api/sessions", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ token: "another.forged.token" })
    })
    expect(open.status).toBe(429)
    expect((await call(failing, "/play/odd-even?token=forged.token.9", { headers })).status).toBe(200)
  })

  it("does not count an expired link on the game page (its signature verifies): only its redemption counts, once", async () => {
    const headers = { "x-forwarded-for": "192.0.2.78" }
    const now = Math.floor(Date.now() / 1000)
    const expired = launchToken(makeClaims({ mode: "demo", iat: now - 120, exp: now - 60 }))
    // The player reloads the expired link's page four times (it says the link expired), and its page redeems once
    for (let n = 0; n < 4; n++) {
      expect((await call(failing, `/play/odd-even?token=${encodeURIComponent(expired)}`, { headers })).status).toBe(200)
    }
    const redeemed = await call(failing, "/api/v1.1/game-api/sessions", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ token: expired })
    })
    expect([redeemed.status, redeemed.body.detail]).toEqual([401, "launch link expired"])
    // One failure so far: four more made-up tokens are still answered, the sixth failure waits
    const open = (token: string) =>
      call(failing, "/api/v1.1/game-api/sessions", {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ token })
      })
    for (let n = 0; n < 4; n++) expect((await open(`made.up.${n}`)).status).toBe(401)
    expect((await open("made.up.5")).status).toBe(429)
  })
})

describe("valid credentials from an address that fails (CONTRACT §2)", () => {
  let shared: Started
  beforeAll(async () => {
    shared = await serve({ rateLimit: { rps: 100, burst: 200, failures: { rps: 0.2, burst: 5 }, trustProxy: true } })
  })
  const from = (address: string, path: string, init: RequestInit = {}) =>
    call(shared, path, { ...init, headers: { ...init.headers, "x-forwarded-for": `10.9.8.7, ${address}` } })
  const round = (address: string, bearer: string) =>
    from(address, "/api/v1.1/game-api/rounds", {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify({ stake: "1.00", selection: "odd" })
    })

  it("answers a valid session, API key and admin token while junk from the same address keeps getting 429", async () => {
    const address = "203.0.113.50"
    const opened = await from(address, "/api/v1.1/game-api/sessions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: launchToken(makeClaims({ mode: "demo" })) })
    })
    expect(opened.status).toBe(201)
    const session = String(opened.body.sessionToken)
    const admin = await token()
    for (let n = 0; n < 8; n++) await round(address, `junk-bearer-${n}`)
    for (let n = 0; n < 4; n++) await from(address, `${base}/games`, { headers: { "sv-api-key": `sv_live.${"J".repeat(43)}.junk${n}0000` } })
    for (let n = 0; n < 4; n++) await from(address, `${base}/merchants/7`, { headers: { authorization: `Bearer junk.${n}.x` } })
    for (let probe = 0; probe < 3; probe++) {
      const junk = await round(address, `junk-bearer-more-${probe}`)
      expect(junk.status).toBe(429)
      expect(junk.body.detail).toMatch(/failed authentications from this address/)
      const played = await round(address, session)
      expect(played.status, JSON.stringify(played.body)).toBe(200)
      expect((await from(address, `${base}/games`, { headers: { "sv-api-key": liveKey } })).status).toBe(200)
      const merchant = await from(address, `${base}/merchants/7`, { headers: { authorization: `Bearer ${admin}` } })
      expect(merchant.status).toBe(200)
      expect((await from(address, `${base}/games`, { headers: { "sv-api-key": `sv_live.${"J".repeat(43)}.junkmore${probe}` } })).status)
        .toBe(429)
      expect((await from(address, `${base}/merchants/7`, { headers: { authorization: "Bearer junk.more.x" } })).status).toBe(429)
    }
  })

  it("says which limit a 429 is about: the API key's rate, the session's rate (a resume spends it too)", async () => {
    const server = await serve({ rateLimit: { rps: 0.01, burst: 1 } })
    expect((await games(server, liveKey)).status).toBe(200)
    const key = await games(server, liveKey)
    expect(key.status).toBe(429)
    expect(key.body.detail).toMatch(/rate limit reached for this API key/)
    const link = launchToken(makeClaims({ mode: "demo" }))
    const opened = await call(server, "/api/v1.1/game-api/sessions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: link })
    })
    const bearer = { authorization: `Bearer ${String(opened.body.sessionToken)}` }
    expect((await call(server, "/api/v1.1/game-api/games", { headers: bearer })).status).toBe(200)
    const session = await call(server, "/api/v1.1/game-api/games", { headers: bearer })
    expect(session.status).toBe(429)
    expect(session.body.detail).toMatch(/rate limit reached for this game session/)
    // Resuming the link with its cookie asks the operator again (a real session): the session's bucket pays.
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
    const resumed = await call(server, "/api/v1.1/game-api/sessions/resume", {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ token: link })
    })
    expect(resumed.status).toBe(429)
    expect(resumed.body.detail).toMatch(/rate limit reached for this game session/)
  })
})

describe("request bodies", () => {
  it("refuses a declared length over the limit with 413 at once, without reading the body", async () => {
    const server = await serve({})
    const answer = await new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const url = new URL(`${server.url}/api/v1.1/game-api/sessions`)
      const request = httpRequest(url, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(200 * 1024 * 1024) }
      }, (response) => {
        let body = ""
        response.on("data", (chunk: Buffer) => body += chunk.toString())
        response.on("end", () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }))
      })
      request.on("error", reject)
      request.write("{\"token\":\"")
    })
    expect(answer.status).toBe(413)
    expect(answer.connection).toBe("close")
    expect(JSON.parse(answer.body)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" })
  })

  it("refuses a body over the limit on a route that takes none, as the document says (GET /health)", async () => {
    const server = await serve({})
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(new URL(`${server.url}/health`), {
        method: "GET",
        headers: { "content-length": String(1024 * 1024) }
      }, (response) => {
        let body = ""
        response.on("data", (chunk: Buffer) => body += chunk.toString())
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }))
      })
      request.on("error", reject)
      request.write("x")
    })
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" })
  })

  it("refuses a chunked body with 413 as soon as it passes the limit, while it streams", async () => {
    const server = await serve({})
    const chunk = Buffer.alloc(16 * 1024, 0x61)
    const { status, sent } = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0
      let done = false
      const request = httpRequest(new URL(`${server.url}/api/v1.1/game-api/sessions`), {
        method: "POST",
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" }
      }, (response) => {
        done = true
        response.resume()
        resolve({ status: response.statusCode ?? 0, sent })
      })
      request.on("error", (error) => done ? undefined : reject(error))
      const pump = () => {
        while (!done && sent < 50 * 1024 * 1024) {
          sent += chunk.length
          if (!request.write(chunk)) return request.once("drain", pump)
        }
      }
      pump()
    })
    expect(status).toBe(413)
    expect(sent).toBeLessThan(8 * 1024 * 1024)
  })
})

describe("one-time secrets", () => {
  it("are answered with cache-control: no-store (a new merchant's credentials, an issued API key)", async () => {
    const server = await serve({})
    const headers = { authorization: `Bearer ${await token()}`, "content-type": "application/json" }
    const created = await call(server, `${base}/create`, {
      method: "POST",
      headers,
      body: JSON.stringify({ countryCodes: ["ET"], companyName: "No Store", email: "nostore@example.com", providerId: 1 })
    })
    expect(created.status).toBe(201)
    expect(created.headers.get("cache-control")).toBe("no-store")
    const issued = await call(server, `${base}/merchants/7/api-keys`, { method: "POST", headers, body: "{}" })
    expect(issued.status).toBe(201)
    expect(issued.headers.get("cache-control")).toBe("no-store")
    const jwks = await call(server, "/.well-known/jwks.json")
    expect(jwks.headers.get("cache-control")).toMatch(/^public, max-age=/)
  })
})

describe("API keys", () => {
  it("never remembers a refusal: a key works as soon as it is issued, and fails as soon as it is revoked", async () => {
    const server = await serve({})
    const headers = { authorization: `Bearer ${await token()}`, "content-type": "application/json" }
    const next = `sv_live.${"k".repeat(42)}1.issued0001`
    expect((await games(server, next)).status).toBe(401)
    const issued = await call(server, `${base}/merchants/7/api-keys`, { method: "POST", headers, body: "{}" })
    expect(issued.body.apiKey).toBe(next)
    expect((await games(server, next)).status).toBe(200)
    expect((await games(server, next)).status).toBe(200)
    const lookups = server.keyLookups()
    const revoked = await call(server, `${base}/merchants/7/api-keys/issued0001`, { method: "DELETE", headers })
    expect(revoked.status).toBe(204)
    expect((await games(server, next)).status).toBe(401)
    expect(server.keyLookups()).toBe(lookups + 1)
  })
})

describe("branding URLs (what the game page loads)", () => {
  const brandingFields = ["fontFamilyUrl", "logo1xUrl", "logo2xUrl", "cupImageUrl"]

  it.each(["/merchants/9/settings", "/settings"])("%s refuses them over plain http with 400 naming the field", async (path) => {
    const server = await serve({ allowPrivateOperatorUrls: false })
    const headers = path === "/settings"
      ? { "sv-api-key": noDetailsKey, "content-type": "application/json" }
      : { authorization: `Bearer ${await token()}`, "content-type": "application/json" }
    for (const field of brandingFields) {
      const put = (url: string) => call(server, `${base}${path}`, { method: "PUT", headers, body: JSON.stringify({ [field]: url }) })
      const refused = await put("http://fonts.example/css2?family=Inter")
      expect(refused.status, field).toBe(400)
      expect(refused.body).toMatchObject({ code: "VALIDATION_FAILED" })
      expect(refused.body.detail).toMatch(new RegExp(`^${field}: must be an absolute https URL`))
      expect((await put("https://fonts.example/css2?family=Inter")).status, field).toBe(200)
    }
  })

  it("takes them over plain http where private operator URLs are allowed (local development)", async () => {
    const server = await serve({ allowPrivateOperatorUrls: true })
    const put = await call(server, `${base}/settings`, {
      method: "PUT",
      headers: { "sv-api-key": noDetailsKey, "content-type": "application/json" },
      body: JSON.stringify({ logo1xUrl: "http://127.0.0.1:8080/static/games/lotto.svg" })
    })
    expect(put.status).toBe(200)
  })

  it("never puts a stored plain-http font style sheet into the page's CSP", async () => {
    const server = await start(undefined, {}, {
      merchants: [makeMerchant({
        id: Merchant.MerchantId.make(70),
        email: "oldfont@example.com",
        MerchantSettings: makeSettings({ fontFamilyUrl: "http://fonts.example/css2?family=Inter" })
      })]
    })
    servers.push(server)
    const page = await call(server, `/play/odd-even?token=${encodeURIComponent(launchToken(makeClaims({ mid: Merchant.MerchantId.make(70) })))}`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).not.toContain("fonts.example")
  })
})

describe("operator URLs at settings time", () => {
  let strict: Started
  let permissive: Started
  beforeAll(async () => {
    strict = await serve({ allowPrivateOperatorUrls: false })
    permissive = await serve({ allowPrivateOperatorUrls: true })
  })

  const put = async (server: Started, path: string, body: unknown) => {
    const headers = path === "/settings"
      ? { "sv-api-key": liveKey, "content-type": "application/json" }
      : { authorization: `Bearer ${await token()}`, "content-type": "application/json" }
    return call(server, `${base}${path}`, { method: "PUT", headers, body: JSON.stringify(body) })
  }

  const privateUrls = [
    "http://127.0.0.1/x",
    "http://10.0.0.1/",
    "http://169.254.169.254/",
    "http://[::1]/",
    "http://localhost/"
  ]
  const fields = ["userDetailsUrl", "webhookUrl", "debitWebhookUrl", "callbackUrl"]

  it.each(["/merchants/9/settings", "/settings"])("%s refuses private addresses with 400 naming the field", async (path) => {
    for (const url of privateUrls) {
      for (const field of fields) {
        const { status, body } = await put(strict, path, { hideBalance: true, [field]: url })
        expect(status, `${field} ${url}`).toBe(400)
        expect(body).toMatchObject({ code: "VALIDATION_FAILED" })
        expect(body.detail).toMatch(new RegExp(`^${field}: must not point to a loopback, private`))
      }
    }
    const current = await call(strict, `${base}/settings`, { headers: { "sv-api-key": liveKey } })
    expect(current.body.hideBalance).toBeUndefined()
  })

  it("accepts public addresses, cleared fields and private branding URLs", async () => {
    const ok = await put(strict, "/merchants/9/settings", {
      webhookUrl: "https://93.184.216.34/hook",
      callbackUrl: null,
      logo1xUrl: "https://127.0.0.1/logo.png"
    })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ webhookUrl: "https://93.184.216.34/hook", logo1xUrl: "https://127.0.0.1/logo.png" })
  })

  it.each(["/merchants/9/settings", "/settings"])("%s accepts them with ALLOW_PRIVATE_OPERATOR_URLS", async (path) => {
    for (const url of privateUrls) {
      const { status, body } = await put(permissive, path, { userDetailsUrl: url })
      expect(status, url).toBe(200)
      expect(body.userDetailsUrl).toBe(url)
    }
  })
})
