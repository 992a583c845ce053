import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { call } from "@gateway/adapters-http/testing"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import pg from "pg"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"
import { playerSession, poll, startWallet } from "./Wallet.ts"

const scope = Effect.runSync(Scope.make())
let gw: Gateway
let db: pg.Client
let wallet: Awaited<ReturnType<typeof startWallet>>

beforeAll(async () => {
  const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedMigratedDatabaseUrl)))
  wallet = await startWallet(() => ({ status: 200 }))
  gw = await spawnGateway({
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ALLOW_PRIVATE_OPERATOR_URLS: "true"
  })
  db = new pg.Client({ connectionString: databaseUrl, statement_timeout: 30_000 })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await gw?.stop("SIGKILL")
  await wallet?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** RFC 4180: records of cells, quoted cells with doubled quotes, CRLF between records; throws on anything else. */
const parseCsv = (text: string): Array<Array<string>> => {
  const records: Array<Array<string>> = []
  let record: Array<string> = []
  let i = 0
  while (i < text.length) {
    let cell = ""
    if (text[i] === "\"") {
      i++
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted cell")
        if (text[i] === "\"") {
          if (text[i + 1] === "\"") {
            cell += "\""
            i += 2
          } else {
            i++
            break
          }
        } else cell += text[i++]
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
        if (text[i] === "\"") throw new Error(`a quote inside an unquoted cell at ${i}`)
        cell += text[i++]
      }
    }
    record.push(cell)
    if (text[i] === ",") i++
    else if (text.startsWith("\r\n", i)) {
      records.push(record)
      record = []
      i += 2
    } else throw new Error(`expected , or CRLF at ${i}: ${JSON.stringify(text.slice(i, i + 20))}`)
  }
  if (record.length > 0) throw new Error("the last record has no CRLF")
  return records
}

/** What a cell of untrusted text looks like in the CSV. */
const neutral = (text: string) => /^[=+\-@\t\r]/.test(text) ? `'${text}` : text

const csvHeaders = (key: string) => ({ "sv-api-key": key, accept: "text/csv" })

/** A session of the merchant with another player id (direct SQL: ids the launch API would refuse). */
const sessionAs = async (merchantId: number, playerId: string, gameId = "odd-even") => {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO game_sessions (id, token_hash, merchant_id, player_id, game_id, operator_session_id, currency, mode, lobby,
       expires_at)
     SELECT gen_random_uuid(), sha256(convert_to(gen_random_uuid()::text, 'UTF8')), $1, $2, $3, 'op-' || $2, 'ETB', 'real',
       false, now() + interval '1 hour'
     RETURNING id::text`,
    [merchantId, playerId, gameId]
  )
  return rows[0]?.id ?? ""
}

/** `count` settled real rounds of the session, one every 10 ms back from `before`: a debit each, a credit every other. */
const seedRounds = async (merchantId: number, sessionId: string, count: number, before: Date, gameId = "odd-even") => {
  await db.query(
    `INSERT INTO rounds (id, session_id, merchant_id, stake_minor, selection, status, outcome, payout_minor, debit_id,
       created_at, updated_at, game_id, mode)
     SELECT gen_random_uuid(), $2, $1, 100 + g % 900, '"odd"', 'settled', '{"summary":"seeded"}',
       CASE WHEN g % 2 = 0 THEN 2 * (100 + g % 900) ELSE 0 END, gen_random_uuid(),
       $4::timestamptz - g * interval '10 ms', $4::timestamptz - g * interval '10 ms', $5, 'real'
     FROM generate_series(1, $3::int) g`,
    [merchantId, sessionId, count, before, gameId]
  )
  await db.query(
    `INSERT INTO ledger_entries (round_id, transaction_id, kind, amount_minor, currency, created_at)
     SELECT id, debit_id, 'debit', stake_minor, 'ETB', created_at FROM rounds WHERE session_id = $1
     UNION ALL
     SELECT id, gen_random_uuid(), 'credit', payout_minor, 'ETB', created_at FROM rounds WHERE session_id = $1 AND payout_minor > 0`,
    [sessionId]
  )
  await db.query("ANALYZE rounds, ledger_entries, game_sessions")
}

const rssKiB = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN)
  } catch {
    return NaN // the process is gone
  }
}

describe("reports as CSV (Accept: text/csv), served by the real server process", () => {
  it("lists the JSON listing's rounds, one record per transaction, quoted per RFC 4180 and safe from formulas", async () => {
    const player = await playerSession(gw, wallet.url, "csv@example.com")
    const from = new Date(Date.now() - 60_000)
    const { sessionToken } = await player.newSession()
    for (const stake of ["1.00", "2.50", "10.00"]) assert.strictEqual((await player.bet(sessionToken, stake)).status, 200)
    const hostile = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1+2", "-3", "@SUM(A1)", "a,\"b\"\r\nc"]
    for (const [i, playerId] of hostile.entries()) {
      const gameId = i === 0 ? "=cmd|' /C calc'!A0" : "odd-even"
      await seedRounds(player.merchantId, await sessionAs(player.merchantId, playerId, gameId), 1, new Date(), gameId)
    }
    const range = `from=${from.toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}`
    const json = await poll(
      () => call(`${player.api}/rounds?${range}&limit=100`, { headers: { "sv-api-key": player.key } }),
      (answer) => answer.status === 200 && answer.body.data.every((r: any) => r.transactions.every((t: any) => t.status !== "pending"))
    )
    assert.strictEqual(json.status, 200, json.text)
    assert.strictEqual(json.body.meta.totalElements, 8)

    const csv = await fetch(`${player.api}/rounds?${range}&limit=2&page=3`, { headers: csvHeaders(player.key) })
    assert.strictEqual(csv.status, 200)
    assert.strictEqual(csv.headers.get("content-type"), "text/csv; charset=utf-8")
    assert.match(csv.headers.get("content-disposition") ?? "", /^attachment; filename="rounds-\d{8}T\d{6}Z-\d{8}T\d{6}Z\.csv"$/)
    const [header, ...records] = parseCsv(await csv.text())
    assert.deepStrictEqual(header, [
      "roundId", "createdAt", "playerId", "gameId", "sessionId", "mode", "status", "stake", "payout", "currency",
      "transactionId", "type", "amount", "transactionStatus", "shopId", "freeRoundGrantId", "roundDetailsUrl"
    ])
    const expected = json.body.data.flatMap((r: any) =>
      r.transactions.map((t: any) => [
        r.roundId, r.createdAt, neutral(r.playerId), neutral(r.gameId), neutral(r.sessionId), r.mode, r.status, r.stake,
        r.payout ?? "", r.currency, t.transactionId, t.type, t.amount, t.status, r.shopId ?? "", r.freeRoundGrantId ?? "", r.roundDetailsUrl
      ])
    )
    assert.deepStrictEqual(records, expected, "every round of the period, paging ignored, the JSON's order")
    const players = new Set(records.map((r) => r[2]))
    for (const cell of ["'=HYPERLINK(\"http://evil.example\",\"x\")", "'+1+2", "'-3", "'@SUM(A1)", "a,\"b\"\r\nc"]) {
      assert.isTrue(players.has(cell), cell)
    }
    assert.isTrue(records.some((r) => r[3] === "'=cmd|' /C calc'!A0"))

    const summary = await call(`${player.api}/reports/summary?${range}&groupBy=player`, { headers: { "sv-api-key": player.key } })
    const summaryCsv = await fetch(`${player.api}/reports/summary?${range}&groupBy=player`, { headers: csvHeaders(player.key) })
    assert.match(summaryCsv.headers.get("content-disposition") ?? "", /filename="summary-by-player-/)
    const [summaryHeader, ...groups] = parseCsv(await summaryCsv.text())
    assert.deepStrictEqual(summaryHeader, ["key", "rounds", "bets", "wins", "refunds", "ggr", "currency", "freeWins"])
    assert.deepStrictEqual(
      groups,
      summary.body.data.map((g: any) => [neutral(g.key), String(g.rounds), g.bets, g.wins, g.refunds, g.ggr, "ETB", g.freeWins])
    )
  }, 30_000)

  it("answers JSON unless CSV is preferred, and errors as problem+json whatever was asked", async () => {
    const player = await playerSession(gw, wallet.url, "csv-accept@example.com")
    const url = `${player.api}/reports/summary?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z`
    const typeFor = async (accept: string | undefined) => {
      const answer = await fetch(url, { headers: { "sv-api-key": player.key, ...(accept === undefined ? {} : { accept }) } })
      return { type: answer.headers.get("content-type"), body: await answer.text() }
    }
    const plain = await typeFor(undefined)
    assert.strictEqual(plain.type, "application/json")
    for (const accept of ["*/*", "application/json", "text/html", "application/problem+json", "text/csv;q=0.5, application/json"]) {
      assert.deepStrictEqual(await typeFor(accept), plain, accept)
    }
    for (const accept of ["text/csv", "text/*", "text/csv, */*;q=0.8", "application/json;q=0.9, text/csv", "TEXT/CSV"]) {
      assert.strictEqual((await typeFor(accept)).type, "text/csv; charset=utf-8", accept)
    }
    for (const [query, status] of [["from=2025-01-01T00:00:00Z&to=2026-03-01T00:00:00Z", 400], ["to=2026-03-02T00:00:00Z", 400]] as const) {
      const answer = await fetch(`${player.api}/rounds?${query}`, { headers: csvHeaders(player.key) })
      assert.strictEqual(answer.status, status)
      assert.strictEqual(answer.headers.get("content-type"), "application/problem+json")
    }
    const anonymous = await fetch(url, { headers: { accept: "text/csv" } })
    assert.strictEqual(anonymous.status, 401)
    assert.strictEqual(anonymous.headers.get("content-type"), "application/problem+json")
  })

  it("streams a large range with flat memory, first records long before the last, and stops reading when the client goes", async () => {
    const player = await playerSession(gw, wallet.url, "csv-large@example.com")
    const rounds = 50_000
    const to = new Date()
    await seedRounds(player.merchantId, await sessionAs(player.merchantId, "p-large"), rounds, to)
    const url = `${player.api}/rounds?from=${new Date(to.getTime() - 86_400_000).toISOString()}&to=${to.toISOString()}`
    const pid = gw.process.pid ?? 0
    const before = rssKiB(pid)
    let peak = before
    const sampler = setInterval(() => peak = Math.max(peak, rssKiB(pid)), 20)

    const started = performance.now()
    const answer = await fetch(url, { headers: csvHeaders(player.key) })
    const reader = answer.body!.getReader()
    let firstRecordMs: number | undefined
    let lines = 0
    let bytes = 0
    let tail = ""
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      bytes += value.byteLength
      for (const byte of value) if (byte === 10) lines++ // no cell of this merchant holds a line break
      tail = (tail + Buffer.from(value.subarray(-2)).toString("latin1")).slice(-2)
      if (firstRecordMs === undefined && lines >= 2) firstRecordMs = performance.now() - started
    }
    const totalMs = performance.now() - started
    clearInterval(sampler)
    assert.strictEqual(lines, 1 + rounds + rounds / 2, "the header, a debit per round and a credit every other")
    assert.strictEqual(tail, "\r\n")
    assert.isBelow(firstRecordMs ?? Infinity, totalMs / 4, `first record after ${firstRecordMs} ms of ${totalMs} ms`)
    const grownMiB = (peak - before) / 1024
    assert.isBelow(grownMiB, 48, `RSS grew ${grownMiB.toFixed(1)} MiB while streaming ${(bytes / 2 ** 20).toFixed(0)} MiB`)

    const scans = async () => {
      await new Promise((r) => setTimeout(r, 1500)) // a lower bound: a backend may report its statistics up to 10 s late
      const { rows } = await db.query<{ n: string }>(
        "SELECT idx_scan::text AS n FROM pg_stat_user_indexes WHERE indexrelname = 'rounds_merchant_created_idx'"
      )
      return Number(rows[0]?.n)
    }
    // pg_stat_activity shows, live, each connection's last statement and when it started: a batch that starts
    // after the client went shows there at once (index statistics can reach pg_stat_user_indexes 10 s late).
    const millis = async (query: string) => Number((await db.query<{ ms: string | null }>(query)).rows[0]?.ms ?? 0)
    const lastBatchStart = () =>
      millis(`SELECT (extract(epoch FROM max(query_start)) * 1000)::text AS ms FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%WITH batch AS%'`)
    const beforeAbort = await scans()
    const controller = new AbortController()
    const aborted = await fetch(url, { headers: csvHeaders(player.key), signal: controller.signal })
    const partial = aborted.body!.getReader()
    let received = 0
    while (received < 100_000) received += (await partial.read()).value?.byteLength ?? Infinity
    controller.abort()
    const abortedAt = await millis("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::text AS ms")
    let lastStart = 0
    for (const until = Date.now() + 2000; Date.now() < until;) {
      lastStart = Math.max(lastStart, await lastBatchStart())
      await new Promise((r) => setTimeout(r, 10))
    }
    assert.isAbove(lastStart, 0, "the streamed batches are seen in pg_stat_activity")
    assert.isBelow(lastStart - abortedAt, 250, "no batch is read after the client went")
    assert.isBelow(await scans() - beforeAbort, rounds / 1000 / 2, "far fewer batches than the whole range")
  }, 60_000)
})
