import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { call } from "@gateway/adapters-http/testing"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"
import { seedPlayers, seedRounds } from "../testing/Seed.ts"
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
  databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedMigratedDatabaseUrl)))
  wallet = await startWallet(() => ({ status: 200 }))
  gw = await spawnGateway({
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: dataKey,
    ALLOW_PRIVATE_OPERATOR_URLS: "true",
    RATE_LIMIT_RPS: "0",
    // The first test is about paging and streaming, not budgets: its merchant may use the whole database and its
    // CSV has no pause between batches (100 ms by default: 12 s of sleep for 120 batches). The budgets' tests start
    // gateways of their own with the defaults (ownGateway).
    REPORTS_DB_SHARE: "1",
    REPORTS_DB_SHARE_TOTAL: "1",
    REPORTS_EXPORT_PAUSE_MS: "0"
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

/** A gateway of its own on the same database, with the default report budgets (and `env`), stopped after `use`. */
const ownGateway = async <A>(env: Record<string, string>, use: (own: Gateway) => Promise<A>): Promise<A> => {
  const own = await spawnGateway({
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: dataKey,
    AUTH_JWT_SECRET: gw.authSecret,
    ALLOW_PRIVATE_OPERATOR_URLS: "true",
    RATE_LIMIT_RPS: "0",
    ...env
  })
  try {
    return await use(own)
  } finally {
    await own.stop("SIGKILL")
  }
}

const alive = async () => (await fetch(`${gw.url}/health`)).status === 200
let databaseUrl = ""
const dataKey = randomBytes(32).toString("base64")
/** The merchant of the first test, with its 120,000 players, for the time-out test. */
let manyPlayers: { readonly api: string; readonly key: string; readonly from: Date; readonly to: Date } | undefined

describe("a summary grouped by player over a period with many players", () => {
  it("is paged (meta as in the games list, total over the whole period) and its CSV streams every group", async () => {
    const player = await playerSession(gw, wallet.url, "many-players@example.com")
    const players = 120_000
    const to = new Date()
    const from = new Date(to.getTime() - 86_400_000)
    // 127-character player ids, as in the finding: one round each, a debit of 1.00 and a credit of 2.00 on every other
    await seedPlayers(db, { merchantId: player.merchantId, players, idLength: 127, before: to })
    manyPlayers = { api: player.api, key: player.key, from, to }
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

/** A report's answer as the tests judge it: its status, code and `retry-after`. */
const outcome = async (url: string, headers: Record<string, string>) => {
  const answer = await fetch(url, { headers })
  const text = await answer.text()
  const code = answer.headers.get("content-type") === "application/problem+json" ? String(JSON.parse(text).code) : ""
  return { status: answer.status, code, retryAfter: answer.headers.get("retry-after") }
}

describe("one merchant's heavy reports against another merchant's bets", () => {
  // The small, fast form of `npm run bench:isolation` (bench/results/*-isolation.md has the figures): its heaviest
  // reports and exports in parallel; every one is answered 200 or 429, every bet of the other merchant is taken.
  it("are refused over the merchant's budget (429 REPORTS_BUSY, retry-after) while the other's bets go on", async () => {
    // A gateway of its own with the default budget, so that the first test's reports do not count
    await ownGateway({}, async (own) => {
      const heavy = await playerSession(own, wallet.url, "heavy-reports@example.com")
      const better = await playerSession(own, wallet.url, "bets-go-on@example.com")
      const to = new Date()
      const from = new Date(to.getTime() - 86_400_000)
      await seedRounds(db, { merchantId: heavy.merchantId, rounds: 40_000, players: 20_000, before: to })
      const range = `from=${from.toISOString()}&to=${to.toISOString()}`
      const headers = { "sv-api-key": heavy.key }
      const { sessionToken } = await better.newSession()
      const indexScans = async () =>
        Number((await db.query<{ n: string }>(
          "SELECT coalesce(sum(idx_scan), 0)::text AS n FROM pg_stat_user_indexes WHERE indexrelname = 'game_sessions_player_recent_idx'"
        )).rows[0]?.n ?? 0)
      const scansBefore = await indexScans()

      const heaviest = [
        [`${heavy.api}/reports/summary?${range}&groupBy=player&limit=100`, "application/json"],
        [`${heavy.api}/rounds?${range}&playerId=nope&page=50&limit=100`, "application/json"],
        [`${heavy.api}/rounds?${range}&page=100&limit=100`, "application/json"],
        [`${heavy.api}/reports/summary?${range}&groupBy=day`, "application/json"],
        [`${heavy.api}/rounds?${range}`, "text/csv"],
        [`${heavy.api}/reports/summary?${range}&groupBy=player`, "text/csv"]
      ] as const
      const reports = Array.from({ length: 12 }, (_, i) => {
        const [url, accept] = heaviest[i % heaviest.length] ?? heaviest[0]
        return outcome(url, { ...headers, accept })
      })
      const bets: Array<{ status: number; ms: number }> = []
      const betting = (async () => {
        for (let i = 0; i < 20; i++) {
          const started = performance.now()
          const answer = await better.bet(sessionToken, "1.00")
          bets.push({ status: answer.status, ms: performance.now() - started })
        }
      })()
      const answers = await Promise.all(reports)
      await betting

      for (const answer of answers) {
        assert.include([200, 429], answer.status, JSON.stringify(answer))
        if (answer.status === 429) {
          assert.strictEqual(answer.code, "REPORTS_BUSY")
          assert.match(answer.retryAfter ?? "", /^\d+$/)
        }
      }
      assert.isAbove(answers.filter((a) => a.status === 429).length, 0, "a merchant runs at most its share of reports at once")
      assert.isAbove(answers.filter((a) => a.status === 200).length, 0, "and its share runs")
      assert.deepStrictEqual(bets.map((b) => b.status), bets.map(() => 200), "every bet of the other merchant is taken")
      assert.isBelow(Math.max(...bets.map((b) => b.ms)), 5_000, "no bet waits behind the reports (a generous bound)")
      const nobody = await outcome(`${heavy.api}/rounds?${range}&playerId=nobody&page=50&limit=100`, headers)
      assert.strictEqual(nobody.status, 200)
      let scans = scansBefore
      for (let i = 0; i < 70 && scans <= scansBefore; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200)) // a backend publishes its statistics within 10 s of going idle
        scans = await indexScans()
      }
      assert.isAbove(scans, scansBefore, "a player's rounds are found through the player index")

      const deepest = await outcome(`${heavy.api}/rounds?${range}&page=101&limit=100`, headers)
      assert.strictEqual(deepest.status, 200, "(page − 1) × limit = 10,000 is the deepest page")
      const deeper = await call(`${heavy.api}/rounds?${range}&page=102&limit=100`, { headers })
      assert.strictEqual(deeper.status, 400)
      assert.strictEqual(deeper.body.code, "VALIDATION_FAILED")
      assert.match(deeper.body.detail, /page/)
      assert.isTrue(await alive())
    })
  }, 120_000)

  it("runs one CSV export per merchant at a time: a second is 429 at once, its pages and another merchant's export still run", async () => {
    const heavy = await playerSession(gw, wallet.url, "one-export@example.com")
    const other = await playerSession(gw, wallet.url, "other-export@example.com")
    const to = new Date()
    const from = new Date(to.getTime() - 86_400_000)
    await seedRounds(db, { merchantId: heavy.merchantId, rounds: 10_000, players: 1_000, before: to })
    await seedRounds(db, { merchantId: other.merchantId, rounds: 100, players: 10, before: to })
    // A gateway of its own with the default budget, so that the reports of the tests above do not count
    await ownGateway({}, async (fresh) => {
      const range = `from=${from.toISOString()}&to=${to.toISOString()}`
      const api = (merchant: typeof heavy) => merchant.api.replace(gw.url, fresh.url)
      const csv = { "sv-api-key": heavy.key, accept: "text/csv" }
      // The month's rounds CSV (~6 MB), its first bytes read and the rest left waiting: the download runs on
      const first = await fetch(`${api(heavy)}/rounds?${range}`, { headers: csv })
      assert.strictEqual(first.status, 200)
      const reader = first.body!.getReader()
      assert.isFalse((await reader.read()).done)

      const started = performance.now()
      const second = await outcome(`${api(heavy)}/reports/summary?${range}&groupBy=player`, csv)
      assert.deepStrictEqual([second.status, second.code], [429, "REPORTS_BUSY"], "a second export of the merchant")
      assert.match(second.retryAfter ?? "", /^\d+$/)
      assert.isBelow(performance.now() - started, 2_000, "refused at once, not queued behind the first")
      const again = await outcome(`${api(heavy)}/rounds?${range}`, csv)
      assert.strictEqual(again.status, 429, "the same export twice too")

      const page = await outcome(`${api(heavy)}/reports/summary?${range}&groupBy=day`, { "sv-api-key": heavy.key })
      assert.strictEqual(page.status, 200, "the merchant's pages are not locked out by its export")
      const others = await outcome(`${api(other)}/rounds?${range}`, { "sv-api-key": other.key, accept: "text/csv" })
      assert.strictEqual(others.status, 200, "another merchant's export runs")

      let lines = 0
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        lines += Buffer.from(value).toString("utf8").split("\r\n").length - 1
      }
      assert.isAbove(lines, 10_000, "the first export ran to its end")
      let after = await outcome(`${api(heavy)}/reports/summary?${range}&groupBy=player`, csv)
      for (let i = 0; i < 50 && after.status === 429; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100)) // the place is given back as the stream ends
        after = await outcome(`${api(heavy)}/reports/summary?${range}&groupBy=player`, csv)
      }
      assert.strictEqual(after.status, 200, "the next export runs once the first has ended")
    })
  }, 120_000)

  it("cancels a report past REPORTS_STATEMENT_TIMEOUT_MS and answers 503 REPORT_TIMEOUT with retry-after", async () => {
    if (manyPlayers === undefined) return assert.fail("runs after the first test, on its 120,000 players")
    const { api, key, from, to } = manyPlayers
    await ownGateway({ REPORTS_STATEMENT_TIMEOUT_MS: "100" }, async (strict) => {
      const url = `${api.replace(gw.url, strict.url)}/reports/summary?from=${from.toISOString()}&to=${to.toISOString()}&groupBy=player`
      const answer = await outcome(url, { "sv-api-key": key })
      assert.deepStrictEqual([answer.status, answer.code], [503, "REPORT_TIMEOUT"])
      assert.match(answer.retryAfter ?? "", /^\d+$/)
      assert.strictEqual((await fetch(`${strict.url}/health`)).status, 200)
    })
  }, 60_000)
})
