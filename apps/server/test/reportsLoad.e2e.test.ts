import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { call } from "@gateway/adapters-http/testing"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"
import { seedPlayers } from "../testing/Seed.ts"
import { playerSession, startWallet } from "./Wallet.ts"

/*
 * One merchant's reports against the process and the other tenants (issue 21, findings 1 and 2): a summary of
 * a period with a hundred thousand players is paged, its CSV streams, and the server is still there.
 */

const scope = Effect.runSync(Scope.make())
let gw: Gateway
let db: pg.Client
let wallet: Awaited<ReturnType<typeof startWallet>>

beforeAll(async () => {
  const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
  wallet = await startWallet(() => ({ status: 200 }))
  gw = await spawnGateway({
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ALLOW_PRIVATE_OPERATOR_URLS: "true",
    RATE_LIMIT_RPS: "0"
  })
  db = new pg.Client({ connectionString: databaseUrl, statement_timeout: 120_000 })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await gw?.stop("SIGKILL")
  await wallet?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

const alive = async () => (await fetch(`${gw.url}/health`)).status === 200

describe("a summary grouped by player over a period with many players", () => {
  it("is paged (meta as in the games list, total over the whole period) and its CSV streams every group", async () => {
    const player = await playerSession(gw, wallet.url, "many-players@example.com")
    const players = 120_000
    const to = new Date()
    const from = new Date(to.getTime() - 86_400_000)
    // 127-character player ids, as in the finding: one round each, a debit of 1.00 and a credit of 2.00 on every other
    await seedPlayers(db, { merchantId: player.merchantId, players, idLength: 127, before: to })
    const range = `from=${from.toISOString()}&to=${to.toISOString()}`
    const headers = { "sv-api-key": player.key }

    const first = await call(`${player.api}/reports/summary?${range}&groupBy=player&limit=100`, { headers })
    assert.strictEqual(first.status, 200, first.text.slice(0, 300))
    assert.strictEqual(first.body.data.length, 100)
    assert.deepStrictEqual(first.body.meta, {
      currentPage: 1, limit: 100, nextPage: 2, prevPage: 0, totalElements: players, totalPage: players / 100
    })
    assert.strictEqual(first.body.total.rounds, players, "the total is the whole period's")
    assert.strictEqual(first.body.total.bets, `${players}.00`)
    assert.strictEqual(first.body.total.wins, `${players}.00`)
    const keys = first.body.data.map((g: { key: string }) => g.key)
    assert.deepStrictEqual(keys, [...keys].sort(), "sorted by key")

    const last = await call(`${player.api}/reports/summary?${range}&groupBy=player&limit=100&page=${players / 100}`, { headers })
    assert.strictEqual(last.status, 200, last.text.slice(0, 300))
    assert.strictEqual(last.body.data.length, 100)
    assert.strictEqual(last.body.meta.nextPage, 0)
    assert.isTrue(last.body.data[0].key > keys.at(-1), "pages follow each other in key order")
    const past = await call(`${player.api}/reports/summary?${range}&groupBy=player&page=${players}`, { headers })
    assert.strictEqual(past.status, 200)
    assert.deepStrictEqual(past.body.data, [])
    assert.strictEqual(past.body.total.rounds, players)

    const defaults = await call(`${player.api}/reports/summary?${range}&groupBy=player`, { headers })
    assert.strictEqual(defaults.body.data.length, 20, "limit defaults to 20 as in every list")

    const csv = await fetch(`${player.api}/reports/summary?${range}&groupBy=player`, { headers: { ...headers, accept: "text/csv" } })
    assert.strictEqual(csv.status, 200)
    const reader = csv.body!.getReader()
    let lines = 0
    let tail = ""
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      const text = tail + Buffer.from(value).toString("utf8")
      const parts = text.split("\r\n")
      tail = parts.pop() ?? ""
      lines += parts.length
    }
    assert.strictEqual(lines, players + 1, "the CSV is every group of the period (and its header), not a page")
    assert.isTrue(await alive(), "the server is still up")
  }, 240_000)
})
