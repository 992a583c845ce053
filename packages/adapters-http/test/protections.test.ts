import { Redacted } from "effect"
import { call as fetchAnswer } from "@gateway/adapters-http/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
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
    limited = await serve({ rateLimit: { rps: 0.5, burst: 3 } })
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
      expect(headers.get("retry-after")).toBe("2")
    }
  })

  it("limits by the key's slug before looking it up, and leaves other keys alone", async () => {
    const lookups = limited.keyLookups()
    const wrongSecret = `sv_live.${"Z".repeat(43)}.activekey1`
    expect((await games(limited, wrongSecret)).status).toBe(429)
    expect(limited.keyLookups()).toBe(lookups)
    for (let i = 0; i < 3; i++) expect((await games(limited, noDetailsKey)).status).toBe(200)
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
      logo1xUrl: "http://127.0.0.1/logo.png"
    })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ webhookUrl: "https://93.184.216.34/hook", logo1xUrl: "http://127.0.0.1/logo.png" })
  })

  it.each(["/merchants/9/settings", "/settings"])("%s accepts them with ALLOW_PRIVATE_OPERATOR_URLS", async (path) => {
    for (const url of privateUrls) {
      const { status, body } = await put(permissive, path, { userDetailsUrl: url })
      expect(status, url).toBe(200)
      expect(body.userDetailsUrl).toBe(url)
    }
  })
})
