import { adminToken, type Answer, call } from "@gateway/adapters-http/testing"
import { type Mailbox, startMailbox } from "@gateway/adapters-operator/testing/Mailbox"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Api } from "@gateway/client/api/Api"
import { Effect, Exit, Redacted, Scope } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"
import { eventually, startWallet } from "./Wallet.ts"

const scope = Effect.runSync(Scope.make())
let gw: Gateway
let mailbox: Mailbox
let wallet: Awaited<ReturnType<typeof startWallet>>
let bo: string
let db: pg.Client

beforeAll(async () => {
  mailbox = await startMailbox()
  wallet = await startWallet(() => ({ status: 200 }))
  const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedMigratedDatabaseUrl)))
  gw = await spawnGateway({
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ALLOW_PRIVATE_OPERATOR_URLS: "true",
    SMTP_URL: mailbox.url,
    WEBHOOK_TIMEOUT_MS: "2000",
    WEBHOOK_RETRY_SCHEDULE: "60,60"
  })
  bo = `${gw.url}/api/v1.1/backoffice`
  db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await gw?.stop("SIGKILL")
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await wallet?.close()
  await mailbox?.close()
})

interface Session {
  readonly cookie: string
  readonly csrf: string
}
const as = (session: Session, csrf = true) => ({ cookie: session.cookie, ...(csrf ? { "x-csrf-token": session.csrf } : {}) })
const cookieOf = (answer: Answer) => (answer.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
const login = async (email: string, password: string): Promise<Session> => {
  const answer = await call(`${bo}/login`, { method: "POST", json: { email, password } })
  expect(answer.status, answer.text).toBe(200)
  return { cookie: cookieOf(answer), csrf: String(answer.body.csrfToken) }
}
const password = "correct horse battery staple"

/** A merchant whose owner changed the generated password and signed in, with its Details and wallet at the loopback operator. */
const merchantWithOwner = async (email: string) => {
  const created = await call(`${gw.url}/api/v1.1/operator-api/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${await adminToken(gw.authSecret)}` },
    json: { countryCodes: ["ET"], companyName: "Staff Co", email, providerId: 1 }
  })
  expect(created.status, created.text).toBe(201)
  const first = await login(email, created.body.password)
  const changed = await call(`${bo}/password`, { method: "POST", headers: as(first), json: { currentPassword: created.body.password, newPassword: password } })
  expect(changed.status, changed.text).toBe(200)
  const owner = await login(email, password)
  return { id: Number(created.body.id), encryptionKey: String(created.body.encryptionKey), owner }
}

/** Invites `email` as `role`, accepts with the mailed code and signs in. */
const staff = async (owner: Session, email: string, role: string) => {
  const invited = await call(`${bo}/users`, { method: "POST", headers: as(owner), json: { email, role } })
  expect(invited.status, invited.text).toBe(201)
  const code = await mailbox.code(email, "invited")
  const accepted = await call(`${bo}/invitation/accept`, { method: "POST", json: { email, code, password } })
  expect(accepted.status, accepted.text).toBe(204)
  return login(email, password)
}

/** What the operator's wallet URL received (its URL carries a query). */
const sent = () =>
  wallet.received.filter((r) => r.url.startsWith("/wallet")).map((r) => ({ headers: r.headers, body: JSON.parse(r.body) }))

/** A real-money round played with `key` for player p-1; its id and its credit's id. */
const playRound = async (key: string) => {
  const launched = await call(`${gw.url}/api/v1.1/operator-api/games/generate-launch-url?gameId=odd-even&playerId=p-1&sessionId=s-1`, {
    headers: { "sv-api-key": key }
  })
  expect(launched.status, launched.text).toBe(200)
  const token = new URL(launched.body.url).searchParams.get("token")
  const opened = await call(`${gw.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
  const round = await call(`${gw.url}/api/v1.1/game-api/rounds`, {
    method: "POST", headers: { authorization: `Bearer ${opened.body.sessionToken}` }, json: { stake: "10.00", selection: "odd" }
  })
  expect(round.status, round.text).toBe(200)
  const roundId = String(round.body.roundId)
  await eventually(() => sent().some((m) => m.body.type === "transaction.credit" && m.body.data.roundId === roundId))
  const credit = sent().find((m) => m.body.type === "transaction.credit" && m.body.data.roundId === roundId)
  return { roundId, creditId: String(credit?.body.data.transactionId), creditSignature: String(credit?.headers["webhook-signature"]) }
}

let a: Awaited<ReturnType<typeof merchantWithOwner>>
let played: Awaited<ReturnType<typeof playRound>>
let keySlug: string

describe("the back office's merchant API, served by the real server process", () => {
  it("lets the owner set the settings, issue a key, play with it and find the round, its figures and its delivery", async () => {
    a = await merchantWithOwner("owner@staff-a.example")
    const put = await call(`${bo}/settings`, {
      method: "PUT", headers: as(a.owner),
      json: { userDetailsUrl: `${wallet.url}/details`, webhookUrl: `${wallet.url}/wallet?token=op-secret`, minimumStake: 1, maximumStake: 500, oddEvenGameProfit: 3 }
    })
    expect(put.status, put.text).toBe(200)
    const settings = await call(`${bo}/settings`, { headers: as(a.owner) })
    expect(settings.body).toMatchObject({ minimumStake: 1, oddEvenGameProfit: 3, webhookUrl: `${wallet.url}/wallet?token=op-secret` })

    const issued = await call(`${bo}/api-keys`, { method: "POST", headers: as(a.owner) })
    expect(issued.status, issued.text).toBe(201)
    keySlug = String(issued.body.slug)
    expect((await call(`${bo}/api-keys`, { headers: as(a.owner) })).body.data).toEqual([
      { slug: keySlug, prefix: "sv_live", createdAt: issued.body.createdAt }
    ])
    played = await playRound(String(issued.body.apiKey))
    const keys = await call(`${bo}/api-keys`, { headers: as(a.owner) })
    expect(keys.body.data[0].lastUsedAt, "the key's use is recorded").toEqual(expect.any(String))

    for (const query of [`roundId=${played.roundId}`, `transactionId=${played.creditId}`, "playerId=p-1"]) {
      const found = await call(`${bo}/rounds?${query}`, { headers: as(a.owner) })
      expect([query, found.status, found.body.data?.map((r: { roundId: string }) => r.roundId)]).toEqual([query, 200, [played.roundId]])
      expect(found.body.data[0].roundDetailsUrl).toMatch(/^http/)
    }
    const summary = await call(`${bo}/summary?groupBy=game`, { headers: as(a.owner) })
    expect(summary.status, summary.text).toBe(200)
    expect(summary.body.data).toEqual([expect.objectContaining({ key: "odd-even", rounds: 1, bets: "10.00" })])
    const csv = await call(`${bo}/summary.csv`, { headers: as(a.owner) })
    expect([csv.status, csv.headers.get("content-type")]).toEqual([200, "text/csv; charset=utf-8"])
    expect(csv.text).toMatch(/^key,rounds,bets/)
    const share = await call(`${bo}/revenue-share`, { headers: as(a.owner) })
    expect([share.status, share.body.currency]).toEqual([200, "ETB"])

    const listed = await call(`${bo}/deliveries?status=delivered`, { headers: as(a.owner) })
    expect(listed.body.data.map((d: { id: string }) => d.id)).toContain(played.creditId)
    const detail = await call(`${bo}/deliveries/${played.creditId}`, { headers: as(a.owner) })
    expect(detail.status, detail.text).toBe(200)
    expect(detail.body.attemptLog).toHaveLength(1)
    const [attempt] = detail.body.attemptLog
    expect(attempt.request.headers["webhook-signature"], "the signature the operator received").toBe(played.creditSignature)
    expect(attempt.request.url).toBe(`${wallet.url}/wallet?token=%E2%80%A6`)
    expect(attempt.request.body).toBe(detail.body.body)
    expect(attempt.answer).toMatchObject({ status: 200, body: JSON.stringify({ balance: "1000.00" }) })

    // The typed client of the pages decodes the same answers.
    const typed = await Effect.runPromise(Effect.gen(function*() {
      const client = yield* HttpApiClient.make(Api, {
        baseUrl: gw.url,
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeaders(as(a.owner)))
      })
      const rounds = yield* client.backofficeOps.rounds({ query: { transactionId: played.creditId, page: 1, limit: 20 } })
      const delivery = yield* client.backofficeOps.delivery({ params: { deliveryId: played.creditId } })
      return { round: rounds.data[0]?.roundId, signature: delivery.attemptLog[0]?.request.headers["webhook-signature"] }
    }).pipe(Effect.provide(FetchHttpClient.layer)))
    expect(typed).toEqual({ round: played.roundId, signature: played.creditSignature })
  })

  it("sends a test ping now and shows the operator's answer, and records a failed attempt's answer", async () => {
    wallet.setReply((_r, body) => body.type === "webhook.test" ? { status: 200, body: { pong: true } } : { status: 200 })
    const ping = await call(`${bo}/webhook-test`, { method: "POST", headers: as(a.owner) })
    expect(ping.status, ping.text).toBe(200)
    expect(ping.body).toMatchObject({ delivered: true, status: 200, body: "{\"pong\":true}" })
    const pinged = sent().find((m) => m.headers["webhook-id"] === ping.body.deliveryId)
    expect(pinged?.body.type).toBe("webhook.test")

    wallet.setReply(() => ({ status: 503, body: { error: "wallet maintenance" }, headers: { "retry-after": "120" } }))
    const failed = await call(`${bo}/webhook-test`, { method: "POST", headers: as(a.owner) })
    expect(failed.body).toMatchObject({ delivered: false, status: 503, body: "{\"error\":\"wallet maintenance\"}" })
    const detail = await call(`${bo}/deliveries/${failed.body.deliveryId}`, { headers: as(a.owner) })
    expect(detail.body).toMatchObject({ status: "pending", lastStatus: 503 })
    expect(detail.body.attemptLog[0].answer).toMatchObject({ status: 503, headers: { "retry-after": "120" } })
    const received = sent().find((m) => m.headers["webhook-id"] === failed.body.deliveryId)
    expect(detail.body.attemptLog[0].request.headers["webhook-signature"]).toBe(received?.headers["webhook-signature"])
    wallet.setReply(() => ({ status: 200 }))
  })

  it("reveals the webhook secret only with the right password, audited, and rotates it", async () => {
    const wrong = await call(`${bo}/secrets/reveal`, { method: "POST", headers: as(a.owner), json: { password: "not my password at all" } })
    expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_CREDENTIALS"])
    expect(wrong.text).not.toContain("whsec_")
    const right = await call(`${bo}/secrets/reveal`, { method: "POST", headers: as(a.owner), json: { password } })
    expect(right.status, right.text).toBe(200)
    expect(right.body.encryptionKey).toBe(a.encryptionKey)
    const rotated = await call(`${bo}/secrets/rotate`, { method: "POST", headers: as(a.owner), json: { secret: "encryptionKey", overlapSeconds: 60 } })
    expect(rotated.status, rotated.text).toBe(200)
    expect(rotated.body.encryptionKey).not.toBe(a.encryptionKey)

    const revoked = await call(`${bo}/api-keys/${keySlug}`, { method: "DELETE", headers: as(a.owner) })
    expect(revoked.status).toBe(204)
    const audit = await call(`${bo}/audit?limit=50`, { headers: as(a.owner) })
    const entries = audit.body.data.map((e: { action: string; actor: string; after: unknown }) => [e.action, e.actor, e.after])
    expect(entries).toEqual(expect.arrayContaining([
      ["secret.reveal", "owner@staff-a.example", { encryptionKey: "revealed" }],
      ["secret.rotate", "owner@staff-a.example", expect.objectContaining({ encryptionKey: "rotated" })],
      ["api_key.revoke", "owner@staff-a.example", expect.anything()],
      ["api_key.issue", "owner@staff-a.example", expect.anything()],
      ["merchant.settings", "owner@staff-a.example", expect.objectContaining({ oddEvenGameProfit: 3 })]
    ]))
    expect(audit.text).not.toContain(right.body.encryptionKey)
    const deep = await call(`${bo}/audit?page=102&limit=100`, { headers: as(a.owner) })
    expect([deep.status, deep.body.code, deep.body.detail]).toEqual([400, "VALIDATION_FAILED", expect.stringContaining("page")])
    expect(audit.text).not.toContain(rotated.body.encryptionKey)
  })

  it("gives each role its permissions only", async () => {
    const finance = await staff(a.owner, "fin@staff-a.example", "finance")
    const support = await staff(a.owner, "help@staff-a.example", "support")
    const developer = await staff(a.owner, "dev@staff-a.example", "developer")
    // One after another: reports run one at a time per merchant (429 REPORTS_BUSY otherwise).
    const statuses = async (session: Session, paths: ReadonlyArray<string>) => {
      const found: Array<number> = []
      for (const path of paths) found.push((await call(`${bo}/${path}`, { headers: as(session) })).status)
      return found
    }
    const rounds = `rounds?roundId=${played.roundId}`
    expect(await statuses(finance, ["summary", rounds, "revenue-share", "settings", "api-keys", "deliveries"]))
      .toEqual([200, 200, 200, 403, 403, 403])
    expect(await statuses(support, ["summary", rounds, "revenue-share", "settings", "api-keys", "deliveries"]))
      .toEqual([403, 200, 403, 403, 403, 403])
    expect(await statuses(developer, ["summary", rounds, "revenue-share", "settings", "api-keys", "deliveries"]))
      .toEqual([403, 403, 403, 200, 200, 200])
    const reveal = await call(`${bo}/secrets/reveal`, { method: "POST", headers: as(finance), json: { password } })
    expect([reveal.status, reveal.body.code]).toEqual([403, "FORBIDDEN"])
    const change = await call(`${bo}/settings`, { method: "PUT", headers: as(finance), json: { minimumStake: 2 } })
    expect(change.status).toBe(403)

    // Invited again before accepting: the new invitation's role wins.
    const first = await call(`${bo}/users`, { method: "POST", headers: as(a.owner), json: { email: "late@staff-a.example", role: "finance" } })
    expect(first.body).toMatchObject({ role: "finance", invitationPending: true })
    await db.query("UPDATE backoffice_codes SET created_at = now() - interval '61 seconds'")
    const seen = mailbox.mails.length
    const again = await call(`${bo}/users`, { method: "POST", headers: as(a.owner), json: { email: "late@staff-a.example", role: "support" } })
    expect([again.status, again.body.id, again.body.role]).toEqual([201, first.body.id, "support"])
    const accepted = await call(`${bo}/invitation/accept`, {
      method: "POST", json: { email: "late@staff-a.example", code: await mailbox.code("late@staff-a.example", "invited", seen), password }
    })
    expect(accepted.status, accepted.text).toBe(204)
    const late = await login("late@staff-a.example", password)
    expect(await statuses(late, ["summary", rounds])).toEqual([403, 200])
  })

  it("refuses every change without the session's CSRF token", async () => {
    const changes: ReadonlyArray<readonly [string, string, unknown]> = [
      ["PUT", "settings", { minimumStake: 2 }],
      ["POST", "api-keys", null],
      ["DELETE", "api-keys/whatever", undefined],
      ["POST", "secrets/reveal", { password }],
      ["POST", "secrets/rotate", { secret: "encryptionKey" }],
      ["POST", `deliveries/${played.creditId}/redeliver`, undefined],
      ["POST", "webhook-test", undefined]
    ]
    for (const [method, path, json] of changes) {
      const refused = await call(`${bo}/${path}`, { method, headers: as(a.owner, false), ...(json === undefined ? {} : { json }) })
      expect([method, path, refused.status, refused.body?.code]).toEqual([method, path, 403, "FORBIDDEN"])
    }
  })

  it("refuses a change whose CSRF token is wrong, or another session's, and takes it with the session's own", async () => {
    const second = await login("owner@staff-a.example", password)
    const support = await staff(a.owner, "csrf@staff-a.example", "support")
    expect(second.csrf).not.toBe(a.owner.csrf)
    const tokens = [
      ["wrong", a.owner.csrf.slice(0, -2) + (a.owner.csrf.endsWith("AA") ? "BB" : "AA")],
      ["the owner's other session", second.csrf],
      ["another user's session", support.csrf]
    ] as const
    for (const [method, path, json] of [["PUT", "settings", { minimumStake: 1 }], ["POST", "api-keys", null]] as const) {
      for (const [whose, token] of tokens) {
        const refused = await call(`${bo}/${path}`, { method, headers: { cookie: a.owner.cookie, "x-csrf-token": token }, json })
        expect([method, path, whose, refused.status, refused.body?.code]).toEqual([method, path, whose, 403, "FORBIDDEN"])
      }
    }
    const taken = await call(`${bo}/settings`, { method: "PUT", headers: as(a.owner), json: { minimumStake: 1 } })
    expect(taken.status, taken.text).toBe(200)
  })

  it("never shows a merchant's staff another merchant's data", async () => {
    const b = await merchantWithOwner("owner@staff-b.example")
    const rounds = await call(`${bo}/rounds?roundId=${played.roundId}`, { headers: as(b.owner) })
    expect([rounds.status, rounds.body.data]).toEqual([200, []])
    expect((await call(`${bo}/rounds?transactionId=${played.creditId}`, { headers: as(b.owner) })).body.data).toEqual([])
    expect((await call(`${bo}/deliveries/${played.creditId}`, { headers: as(b.owner) })).status).toBe(404)
    expect((await call(`${bo}/deliveries`, { headers: as(b.owner) })).body.data).toEqual([])
    expect((await call(`${bo}/api-keys`, { headers: as(b.owner) })).body.data).toEqual([])
    const revoke = await call(`${bo}/api-keys/${keySlug}`, { method: "DELETE", headers: as(b.owner) })
    expect([revoke.status, revoke.body.code]).toEqual([404, "API_KEY_NOT_FOUND"])
    const summary = await call(`${bo}/summary`, { headers: as(b.owner) })
    expect(summary.body.total).toMatchObject({ rounds: 0 })
    const revealed = await call(`${bo}/secrets/reveal`, { method: "POST", headers: as(b.owner), json: { password } })
    expect(revealed.body.encryptionKey).toBe(b.encryptionKey)
  })
})
