import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Answer, call } from "@gateway/adapters-http/testing"
import { LaunchToken, Merchant } from "@gateway/domain"
import { launchToken, makeClaims, makeMerchant, makeSettings } from "@gateway/domain/testing"
import { start, type Started, token } from "./support.ts"

const game = "/api/v1.1/game-api"
const admin = "/api/v1.1/operator-api"
let server: Started

beforeAll(async () => {
  server = await start(undefined, {}, {
    merchants: [
      makeMerchant({
        id: Merchant.MerchantId.make(1000),
        email: "games@example.com",
        MerchantSettings: makeSettings({
          userDetailsUrl: "https://ops.example/details",
          webhookUrl: "https://ops.example/wallet",
          minimumStake: 1,
          maximumStake: 500
        })
      }),
      makeMerchant({ id: Merchant.MerchantId.make(1001), email: "nolimits@example.com" })
    ]
  })
})
afterAll(() => server.dispose())

const claims = (overrides: Partial<LaunchToken.LaunchClaims> = {}) =>
  makeClaims({ mid: Merchant.MerchantId.make(1000), ...overrides })

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(server.url + path, { method: "POST", headers, json: body })

const expectProblem = (result: Answer, status: number, code: string, detail?: RegExp) => {
  expect(result.status).toBe(status)
  expect(result.headers.get("content-type")).toBe("application/problem+json")
  expect(result.body).toMatchObject({ success: false, status, code })
  if (detail !== undefined) expect(result.body.detail).toMatch(detail)
}

const open = async (overrides: Partial<LaunchToken.LaunchClaims> = {}) => {
  const opened = await post(`${game}/sessions`, { token: launchToken(claims(overrides)) })
  expect(opened.status).toBe(201)
  return String(opened.body.sessionToken)
}
const bet = (sessionToken: string, stake: string, selection = "odd") =>
  post(`${game}/rounds`, { stake, selection }, { authorization: `Bearer ${sessionToken}` })

describe("game sessions", () => {
  it("redeems a token once: 201 with the session, balance and page settings, then 409", async () => {
    const t = launchToken(claims())
    const first = await post(`${game}/sessions`, { token: t })
    expect(first.status).toBe(201)
    expect(first.headers.get("cache-control")).toBe("no-store")
    expect(first.body).toMatchObject({
      balance: "100.00",
      session: { merchantId: 1000, playerId: "p-1", gameId: "odd-even", mode: "real", currency: "ETB" },
      settings: { hideBalance: false, minimumStake: 1, maximumStake: 500 },
      launch: { language: "en" }
    })
    const page = await post(`${game}/sessions`, {
      token: launchToken(claims({ lang: "sw", lurl: "https://casino.example/lobby", rcm: 15 }))
    })
    expect(page.body.launch).toEqual({ language: "sw", lobbyUrl: "https://casino.example/lobby", realityCheckMinutes: 15 })
    expect(typeof first.body.sessionToken).toBe("string")
    expectProblem(await post(`${game}/sessions`, { token: t }), 409, "TOKEN_ALREADY_USED")
  })

  it("an expired token is 401 'launch link expired', a forged one 401 'invalid launch link'", async () => {
    const now = Math.floor(Date.now() / 1000)
    expectProblem(await post(`${game}/sessions`, { token: launchToken(claims({ iat: now - 120, exp: now - 60 })) }), 401,
      "UNAUTHORIZED", /^launch link expired$/)
    expectProblem(await post(`${game}/sessions`, { token: "forged.token.here" }), 401, "UNAUTHORIZED", /^invalid launch link$/)
    expectProblem(await post(`${game}/sessions`, {}), 400, "VALIDATION_FAILED", /token/)
  })
})

describe("resuming a used link (POST sessions/resume)", () => {
  const resume = (t: string, cookie?: string) => post(`${game}/sessions/resume`, { token: t }, cookie === undefined ? {} : { cookie })
  const cookieOf = (answer: Answer) => {
    const set = answer.headers.get("set-cookie") ?? ""
    return { set, pair: set.split(";")[0] ?? "" }
  }

  it("sets a Partitioned, HttpOnly, Secure resume cookie for the resume path only, and resumes that link's session with it", async () => {
    const now = Math.floor(Date.now() / 1000)
    const t = launchToken(claims({ iat: now - 30, exp: now + 2 }))
    const opened = await post(`${game}/sessions`, { token: t })
    expect(opened.status).toBe(201)
    const { set, pair } = cookieOf(opened)
    expect(set).toMatch(/^gateway_resume=[A-Za-z0-9_-]{43}\.[^;]+; Max-Age=43200; Path=\/api\/v1\.1\/game-api\/sessions\/resume; /)
    for (const attribute of ["HttpOnly", "Secure", "SameSite=None", "Partitioned"]) expect(set).toContain(`; ${attribute}`)
    expect(pair.endsWith(`.${opened.body.sessionToken}`)).toBe(true)
    const token = String(opened.body.sessionToken)
    expect((await bet(token, "2.00")).status).toBe(200)

    // The link has expired meanwhile: its signature still verifies, and the cookie resumes the live session.
    await new Promise((r) => setTimeout(r, 3000))
    expectProblem(await post(`${game}/sessions`, { token: t }), 401, "UNAUTHORIZED", /expired/)
    const resumed = await resume(t, pair)
    expect(resumed.status).toBe(200)
    expect(resumed.headers.get("cache-control")).toBe("no-store")
    expect(resumed.body).toMatchObject({
      sessionToken: token,
      session: { id: opened.body.session.id, playerId: "p-1", gameId: "odd-even", mode: "real" },
      balance: "100.00",
      settings: { minimumStake: 1, maximumStake: 500 },
      fairness: { serverSeedHash: opened.body.fairness.serverSeedHash, clientSeed: opened.body.fairness.clientSeed, nonce: 1 },
      launch: { language: "en" }
    })
    expect(cookieOf(resumed).pair).toBe(pair)
  })

  it("without the cookie, or with another link's, is the used link's 409; a forged token 401; a bad body 400", async () => {
    const t = launchToken(claims())
    const opened = await post(`${game}/sessions`, { token: t })
    const { pair } = cookieOf(opened)
    const other = launchToken(claims())
    const second = await post(`${game}/sessions`, { token: other })
    expect(second.status).toBe(201)
    expectProblem(await resume(t), 409, "TOKEN_ALREADY_USED")
    expectProblem(await resume(other, pair), 409, "TOKEN_ALREADY_USED")
    expectProblem(await resume(t, `gateway_resume=${pair.split(".")[0]?.slice(15)}.session-999`), 409, "TOKEN_ALREADY_USED")
    expectProblem(await resume(t, "gateway_resume=" + "x".repeat(5000)), 409, "TOKEN_ALREADY_USED")
    expectProblem(await resume("forged.token.here", pair), 401, "UNAUTHORIZED", /^invalid launch link$/)
    expectProblem(await post(`${game}/sessions/resume`, { token: "" }), 400, "VALIDATION_FAILED", /token/)
    expect((await resume(t, pair)).status).toBe(200)
  })
})

describe("rounds", () => {
  it("plays a real round: debit accepted, credit of 1.95x queued with the debit as its reference", async () => {
    const session = await open()
    const round = await bet(session, "10.00", "odd")
    expect(round.status).toBe(200)
    expect(round.body).toMatchObject({
      gameId: "odd-even",
      outcome: { number: 17, parity: "odd", summary: "17 odd" },
      payout: "19.50",
      balance: "109.50",
      fairness: { nonce: 0 }
    })
    const settled = server.ledger.settled.find((s) => s.roundId === round.body.roundId)
    expect(settled?.credit.type).toBe("transaction.credit")
    expect(settled?.credit.amount.minor).toBe(1950n)
    const lost = await bet(session, "10", "even")
    expect(lost.body).toMatchObject({ outcome: { summary: "17 odd" }, payout: "0.00", fairness: { nonce: 1 } })
  })

  it("demo rounds move the virtual balance and 402 INSUFFICIENT_FUNDS when it is short", async () => {
    const session = await open({ mode: "demo" })
    const round = await bet(session, "500", "even")
    expect(round.body).toMatchObject({ payout: "0.00", balance: "500.00" })
    await bet(session, "500", "even")
    expectProblem(await bet(session, "1", "odd"), 402, "INSUFFICIENT_FUNDS")
  })

  it("maps wallet refusals and outages to 402 BET_REFUSED and 502 WALLET_UNAVAILABLE", async () => {
    expectProblem(await bet(await open({ sub: "broke" }), "10"), 402, "BET_REFUSED", /HTTP 402/)
    const offline = await bet(await open({ sub: "offline" }), "10")
    expectProblem(offline, 502, "WALLET_UNAVAILABLE", /refunded/)
    expect(server.ledger.failed.at(-1)?.refund.type).toBe("transaction.refund")
  })

  it("refuses stakes outside [minimumStake, maximumStake], bad stakes and bad selections with 400 naming the field", async () => {
    const session = await open()
    for (const [stake, selection, field] of [["0.50", "odd", /^stake: must be at least 1\.00/], ["501", "odd", /^stake: must be at most 500\.00/],
      ["1.234", "odd", /^stake/], ["ten", "odd", /^stake/], ["-1", "odd", /^stake/], ["10", "seven", /^selection/]] as const) {
      expectProblem(await bet(session, stake, selection), 400, "VALIDATION_FAILED", field)
    }
  })

  it("refuses a stake too large for any amount with 400 naming stake, never 500, also without a maximumStake", async () => {
    const session = await open({ mid: Merchant.MerchantId.make(1001), mode: "demo" })
    for (const stake of ["99999999999999999.99", "10000000000000.00", "999999999999999999"]) {
      expectProblem(await bet(session, stake), 400, "VALIDATION_FAILED", /^stake: must be at most 9999999999999\.99$/)
    }
    expectProblem(await bet(session, "9999999999999.99"), 402, "INSUFFICIENT_FUNDS")
    expect((await bet(session, "1000")).body).toMatchObject({ payout: "1950.00", balance: "1950.00" })
  })

  it("needs a session token: missing 401 UNAUTHORIZED, unknown 401 SESSION_EXPIRED", async () => {
    expectProblem(await post(`${game}/rounds`, { stake: "1", selection: "odd" }), 401, "UNAUTHORIZED")
    expectProblem(await bet("session-unknown", "1"), 401, "SESSION_EXPIRED")
  })
})

describe("the game page", () => {
  it("serves iframe-friendly HTML with a nonce CSP that allows any framer", async () => {
    const { status, headers, text: html } = await call(`${server.url}/play/odd-even?token=abc`)
    expect(status).toBe(200)
    expect(headers.get("content-type")).toMatch(/^text\/html/)
    const csp = headers.get("content-security-policy") ?? ""
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeDefined()
    expect(csp).toContain("frame-ancestors *")
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain("unsafe-inline")
    expect(headers.get("x-frame-options")).toBeNull()
    expect(html).toContain(`<script nonce="${nonce}">`)
    expect(html).toContain(`<style nonce="${nonce}">`)
    expect(html).toContain("html,body{margin:0;width:100%;height:100%}")
    expect(html).toContain('data-token="abc"')
    expect(html).not.toMatch(/<(script|link)[^>]+src=/)
    const second = await call(`${server.url}/play/odd-even`)
    expect(second.headers.get("content-security-policy")).not.toBe(csp)
  })

  it("escapes everything interpolated from the request", async () => {
    const evil = `"><script>alert(1)</script>`
    const { status, text: html } = await call(
      `${server.url}/play/${encodeURIComponent(`x"><img src=x onerror=alert(1)>`)}?token=${encodeURIComponent(evil)}`
    )
    expect(status).toBe(200)
    expect(html).not.toContain("<script>alert(1)</script>")
    expect(html).not.toContain("<img src=x")
    expect(html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(html.match(/<script/g)?.length).toBe(1)
  })

  it("serves the built-in games' SVG images and 404 for others", async () => {
    const svg = await call(`${server.url}/static/games/odd-even.svg`)
    expect(svg.status).toBe(200)
    expect(svg.headers.get("content-type")).toMatch(/^image\/svg\+xml/)
    expect(svg.text).toMatch(/^<svg [^>]*>.*Odd Even.*<\/svg>$/)
    const missing = await call(`${server.url}/static/games/nope.svg`)
    expect(missing.status).toBe(404)
    expect(missing.body.code).toBe("GAME_NOT_FOUND")
    expect((await call(`${server.url}/static/games/toString.svg`)).status).toBe(404)
  })
})

describe("webhook deliveries (admin)", () => {
  const headers = async (scope = "read:users write:users") => ({ authorization: `Bearer ${await token({ scope })}` })
  const get = async (path: string, scope?: string) => call(server.url + path, { headers: await headers(scope) })

  it("lists the deliveries of a merchant by status (pending, delivered, failed) or all; another status is 400; reading needs read:users", async () => {
    await Effect.runPromise(Effect.andThen(
      server.deliveries.enqueue({ id: "d-1", merchantId: Merchant.MerchantId.make(1000), type: "transaction.credit", body: "{}" }),
      server.deliveries.service.failed("d-1", "the operator answered HTTP 500", 500)
    ))
    const list = await get(`${admin}/merchants/1000/webhook-deliveries?status=failed`)
    expect(list.status).toBe(200)
    expect(list.body.data).toEqual([expect.objectContaining({
      id: "d-1", merchantId: 1000, type: "transaction.credit", lastError: "the operator answered HTTP 500", lastStatus: 500
    })])
    expect((await get(`${admin}/merchants/7/webhook-deliveries?status=failed`)).body).toEqual({ data: [] })
    await Effect.runPromise(
      server.deliveries.enqueue({ id: "d-2", merchantId: Merchant.MerchantId.make(1000), type: "transaction.debit", body: "{}" })
    )
    const statuses = async (q: string) =>
      (await get(`${admin}/merchants/1000/webhook-deliveries${q}`)).body.data.map((d: { id: string; status: string }) => [d.id, d.status])
    expect(await statuses("?status=pending")).toEqual([["d-2", "pending"]])
    expect(await statuses("?status=failed")).toEqual([["d-1", "failed"]])
    expect(await statuses("?status=delivered")).toEqual([])
    expect(await statuses("")).toEqual([["d-2", "pending"], ["d-1", "failed"]])
    for (const q of ["status=retrying", "status=FAILED&status=failed", "status="]) {
      const bad = await get(`${admin}/merchants/1000/webhook-deliveries?${q}`)
      expect(bad.status, q).toBe(400)
      expect(bad.body.code).toBe("VALIDATION_FAILED")
    }
    expect((await get(`${admin}/merchants/999/webhook-deliveries?status=failed`)).body.code).toBe("MERCHANT_NOT_FOUND")
    expect((await get(`${admin}/merchants/1000/webhook-deliveries?status=failed`, "write:users")).status).toBe(403)
  })

  it("redelivers a failed message (202), 404 DELIVERY_NOT_FOUND for anything else", async () => {
    await Effect.runPromise(Effect.andThen(
      server.deliveries.enqueue({ id: "d-2", merchantId: Merchant.MerchantId.make(1000), type: "transaction.refund", body: "{}" }),
      server.deliveries.service.failed("d-2", "no webhook URL configured")
    ))
    const path = `${admin}/merchants/1000/webhook-deliveries/d-2/redeliver`
    expectProblem(await post(path, {}, await headers("read:users")), 403, "FORBIDDEN")
    const ok = await post(path, {}, await headers())
    expect(ok.status).toBe(202)
    expect(server.deliveries.rows.get("d-2")?.status).toBe("queued")
    expectProblem(await post(path, {}, await headers()), 404, "DELIVERY_NOT_FOUND")
    expectProblem(await post(`${admin}/merchants/7/webhook-deliveries/d-1/redeliver`, {}, await headers()), 404, "DELIVERY_NOT_FOUND")
  })

  it("queues a webhook.test ping: 202 {deliveryId}", async () => {
    const queued = await post(`${admin}/merchants/1000/webhook-test`, {}, await headers())
    expect(queued.status).toBe(202)
    expect(server.deliveries.rows.get(queued.body.deliveryId)?.type).toBe("webhook.test")
    expectProblem(await post(`${admin}/merchants/999/webhook-test`, {}, await headers()), 404, "MERCHANT_NOT_FOUND")
    expectProblem(await post(`${admin}/merchants/1000/webhook-test`, {}), 401, "UNAUTHORIZED")
  })
})

describe("OpenAPI", () => {
  it("documents the new codes and each game's selection format", async () => {
    const doc = (await call(`${server.url}/openapi.json`)).body
    const rounds = doc.paths["/api/v1.1/game-api/rounds"].post
    expect(rounds.description).toContain("GET games/{gameId}/rules")
    const selection = rounds.requestBody.content["application/json"].schema.properties.selection
    expect(selection.anyOf.map((s: { title: string }) => s.title)).toHaveLength(6)
    expect(selection.anyOf[0]).toMatchObject({ enum: ["odd", "even"] })
    expect(doc.paths["/api/v1.1/game-api/games/{gameId}/rules"].get.summary).toMatch(/rules/)
    expect(doc.paths["/api/v1.1/game-api/rounds/{roundId}"].get.responses["404"].description).toMatch(/ROUND_NOT_FOUND/)
    expect(rounds.responses["402"].description).toMatch(/BET_REFUSED.*INSUFFICIENT_FUNDS/)
    expect(rounds.responses["502"].description).toMatch(/WALLET_UNAVAILABLE/)
    expect(rounds.responses["401"].description).toMatch(/SESSION_EXPIRED/)
    expect(doc.paths["/api/v1.1/operator-api/merchants/{id}/webhook-deliveries/{deliveryId}/redeliver"].post.responses["404"].description)
      .toMatch(/DELIVERY_NOT_FOUND/)
  })
})
