import { adminToken, type Answer, call } from "@gateway/adapters-http/testing"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
let databaseUrl: string
let gw: Gateway

beforeAll(async () => {
  databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedMigratedDatabaseUrl)))
  gw = await spawnGateway({
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ALLOW_PRIVATE_OPERATOR_URLS: "true"
  })
})
afterAll(async () => {
  await gw.stop("SIGKILL")
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** Asks until `done` holds, for a second at most; the last answer. */
const within1s = async (ask: () => Promise<Answer>, done: (a: Answer) => boolean): Promise<Answer> => {
  const deadline = Date.now() + 1000
  for (;;) {
    const answer = await ask()
    if (done(answer) || Date.now() > deadline) return answer
    await new Promise((r) => setTimeout(r, 10))
  }
}

const ids = (answer: Answer): Array<string> => answer.body.data.map((game: { id: string }) => game.id)
const sameHeaders = (a: Answer, b: Answer) => {
  const kept = (answer: Answer) => [...answer.headers].filter(([name]) => name !== "date" && name !== "x-request-id")
  assert.deepStrictEqual(kept(a), kept(b))
}

describe("games pages on PostgreSQL, kept encoded by the real server", () => {
  it("answer the same bytes until the catalogue changes, by the admin API or by another writer, and only to a valid key", async () => {
    const admin = { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
    const api = `${gw.url}/api/v1.1/operator-api`
    const merchant = await call(`${api}/create`, {
      method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Pages Co", email: "pages@example.com", providerId: 1 }
    })
    const issued = await call(`${api}/merchants/${merchant.body.id}/api-keys`, { method: "POST", headers: admin })
    assert.strictEqual(issued.status, 201, issued.text)
    const key = { "sv-api-key": String(issued.body.apiKey) }
    const list = () => call(`${api}/games?search=pages-&sortBy=id`, { headers: key })

    const first = await list()
    assert.strictEqual(first.status, 200, first.text)
    assert.deepStrictEqual(ids(first), [])
    const second = await list()
    assert.strictEqual(second.text, first.text)
    sameHeaders(first, second)
    assert.strictEqual(second.headers.get("cache-control"), "no-store")
    assert.strictEqual(second.headers.get("content-type"), "application/json")

    const game = { name: "Pages One", releaseDate: "2026-11-23", baseLaunchUrl: "https://games.example/p1", category: 1, imageUrl: "https://games.example/p1.png" }
    assert.strictEqual((await call(`${api}/games/pages-one`, { method: "PUT", headers: admin, json: game })).status, 200)
    assert.deepStrictEqual(ids(await list()), ["pages-one"], "an upsert through this instance shows on the next request")

    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      await client.query(
        `INSERT INTO games (id, name, release_date, base_launch_url, category, image_url)
         VALUES ('pages-two', 'Pages Two', '2026-11-23', 'https://games.example/p2', 2, 'https://games.example/p2.png')`
      )
    } finally {
      await client.end()
    }
    const announced = await within1s(list, (a) => ids(a).length === 2)
    assert.deepStrictEqual(ids(announced), ["pages-one", "pages-two"], "another writer's insert shows once the change feed tells")

    assert.strictEqual((await call(`${api}/games/pages-one`, { method: "DELETE", headers: admin })).status, 204)
    assert.deepStrictEqual(ids(await list()), ["pages-two"], "a retirement shows on the next request")

    assert.strictEqual((await call(`${api}/merchants/${merchant.body.id}/api-keys/${issued.body.slug}`, { method: "DELETE", headers: admin })).status, 204)
    const revoked = await list()
    assert.strictEqual(revoked.status, 401, revoked.text)
    assert.strictEqual(revoked.body.code, "UNAUTHORIZED")
  })
})
