import { adminToken, call } from "@gateway/adapters-http/testing"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
let a: Gateway
let b: Gateway

beforeAll(async () => {
  const env = {
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
  await Promise.all([a.stop("SIGKILL"), b.stop("SIGKILL")])
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
