/**
 * `npm run bench:reports`: the reconciliation reads on a month of 10 million
 * rounds; see bench/README.md. A fresh database (DATABASE_URL's server, else
 * an embedded PostgreSQL), merchants made through the API, rounds and their
 * ledger seeded with SQL, then the summary of one day timed through the real
 * server over HTTP, checked against the ledger, its query explained, and one
 * day exported as CSV.
 * Environment: BENCH_ROUNDS (10000000; another count writes <date>-reports-<n>-rounds.md), BENCH_RUNS (10),
 * BENCH_TIMEOUT_SECONDS (5400).
 */
import { Effect, Redacted, Scope } from "effect"
import { availableParallelism, cpus, loadavg } from "node:os"
import pg from "pg"
import { adminToken, call } from "@gateway/adapters-http/testing"
import * as PgTest from "@gateway/adapters-pg/testing"
import { guard, killAll } from "./children.ts"
import { gatewayEnv, startGateway } from "./gateways.ts"
import { statusKb } from "./proc.ts"
import { publish } from "./report.ts"
import { closeOrDrop, serverVersion } from "./seed.ts"

const rounds = Number(process.env["BENCH_ROUNDS"] ?? 10_000_000)
const runs = Number(process.env["BENCH_RUNS"] ?? 10)
const merchants = 4
const playersPerMerchant = 2500
const games = 20
const month = { from: "2026-10-01T00:00:00Z", days: 30 }
const day = { from: "2026-10-15T00:00:00Z", to: "2026-10-16T00:00:00Z" }

const began = performance.now()
const elapsed = () => `${((performance.now() - began) / 1000).toFixed(0)} s`
const log = (line: string) => console.log(`[${elapsed()}] ${line}`)
const timed = async <A>(what: string, run: () => Promise<A>): Promise<A> => {
  const start = performance.now()
  const result = await run()
  log(`${what}: ${((performance.now() - start) / 1000).toFixed(1)} s`)
  return result
}

/**
 * Sessions (a player each), then per day of the month its share of rounds and their ledger entries, as the wallet
 * books them, each round with the sums of its ledger entries (what migration 0010's trigger keeps).
 */
const seed = async (client: pg.Client, merchantIds: ReadonlyArray<number>) => {
  // A bench shortcut: the foreign keys are not checked row by row while seeding (the rows reference what the same
  // statements create), and no trigger runs — so neither does ledger_entries_round_sums: each round is inserted with
  // its sums already (from the same expressions as its ledger rows; main checks a day of them against the ledger),
  // which leaves the table unbloated, as the trigger's updates would be once vacuumed. Every trigger is back for the
  // measured reads.
  await client.query("SET session_replication_role = replica")
  await client.query(
    `INSERT INTO game_sessions (id, token_hash, merchant_id, player_id, game_id, operator_session_id, currency, mode,
       lobby, created_at, expires_at)
     SELECT gen_random_uuid(), sha256(convert_to(gen_random_uuid()::text, 'UTF8')), m, 'player-' || lpad(p::text, 5, '0'),
       'game-' || lpad((p % $2)::text, 2, '0'), 'session-' || m || '-' || p, 'ETB', 'real', true, $3::timestamptz,
       $3::timestamptz + interval '40 days'
     FROM unnest($1::int[]) m CROSS JOIN generate_series(0, $4::int - 1) p`,
    [merchantIds, games, month.from, playersPerMerchant]
  )
  await client.query(`CREATE TEMP TABLE bench_sessions AS
    SELECT row_number() OVER (ORDER BY merchant_id, player_id) - 1 AS n, id, merchant_id FROM game_sessions`)
  await client.query("ANALYZE bench_sessions")
  const sessions = merchantIds.length * playersPerMerchant
  const perDay = Math.ceil(rounds / month.days)
  for (let d = 0; d < month.days; d++) {
    const first = d * perDay
    const count = Math.min(perDay, rounds - first)
    if (count <= 0) break
    // Round g: a session (so a merchant and a player) by g, spread evenly over the day; 1 % refused (no money
    // moved), 1 % failed (the unknown debit refunded), the rest settled with a debit and a credit (0 on a loss).
    // One statement per day for both tables: the ledger rows come from the rounds it inserts.
    await client.query(
      `WITH inserted AS (
         INSERT INTO rounds (id, session_id, merchant_id, stake_minor, selection, status, outcome, payout_minor, debit_id,
           created_at, updated_at, game_id, mode, ledger_debit_minor, ledger_credit_minor, ledger_refund_minor,
           ledger_entries)
         SELECT gen_random_uuid(), s.id, s.merchant_id, b.stake, '"odd"', b.status, '{}', b.payout, gen_random_uuid(), c.t,
           c.t, 'game-' || lpad((g % $5)::text, 2, '0'), 'real',
           CASE b.status WHEN 'settled' THEN b.stake ELSE 0 END, CASE b.status WHEN 'settled' THEN b.payout ELSE 0 END,
           CASE b.status WHEN 'failed' THEN b.stake ELSE 0 END,
           CASE b.status WHEN 'settled' THEN 2 WHEN 'failed' THEN 1 ELSE 0 END
         FROM generate_series($1::bigint, $1::bigint + $2::bigint - 1) g
         JOIN bench_sessions s ON s.n = (g * 7919) % $3
         CROSS JOIN LATERAL (
           SELECT $4::timestamptz + interval '1 day' * $6 + interval '86399 seconds' * ((g - $1)::float8 / $2) AS t
         ) c
         CROSS JOIN LATERAL (
           SELECT 100 + (g * 37) % 9900 AS stake,
             CASE g % 100 WHEN 7 THEN 'refused' WHEN 13 THEN 'failed' ELSE 'settled' END AS status,
             CASE WHEN g % 100 IN (7, 13) THEN NULL WHEN g % 3 = 0 THEN 2 * (100 + (g * 37) % 9900) ELSE 0 END AS payout
         ) b
         ORDER BY g
         RETURNING id, debit_id, status, stake_minor, payout_minor, created_at
       )
       INSERT INTO ledger_entries (round_id, transaction_id, kind, amount_minor, currency, created_at)
       SELECT r.id, CASE WHEN k.kind = 'debit' THEN r.debit_id ELSE gen_random_uuid() END, k.kind,
         CASE WHEN k.kind = 'credit' THEN r.payout_minor ELSE r.stake_minor END, 'ETB', r.created_at
       FROM inserted r CROSS JOIN (VALUES ('debit'), ('credit'), ('refund')) AS k (kind)
       WHERE (r.status = 'settled' AND k.kind <> 'refund') OR (r.status = 'failed' AND k.kind = 'refund')`,
      [first, count, sessions, month.from, games, d]
    )
    if (d % 5 === 4) log(`seeded ${d + 1} of ${month.days} days`)
  }
  await client.query("SET session_replication_role = DEFAULT")
}

/** The summary's query as `ReportsPg.sumsStatement` sends it for one merchant (keep in step), for EXPLAIN: by day, or by player. */
const summarySql = (byPlayer: boolean) => `
  SELECT ${byPlayer ? "s.player_id" : "to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"} AS key, count(*)::float8 AS rounds,
    (sum(r.ledger_debit_minor) + sum(CASE WHEN r.ledger_debit_minor = 0 THEN r.ledger_refund_minor ELSE 0 END))::text
      AS bets,
    sum(r.ledger_credit_minor)::text AS wins, sum(r.ledger_refund_minor)::text AS refunds
  FROM (VALUES ($1::integer, $2::text)) m (id, currency)
  JOIN merchants mc ON mc.id = m.id AND mc.currency = m.currency
  JOIN rounds r ON r.merchant_id = m.id
  ${byPlayer ? "JOIN game_sessions s ON s.id = r.session_id" : ""}
  WHERE r.mode = 'real' AND r.ledger_entries > 0
    AND r.created_at >= $3 AND r.created_at < $4
  GROUP BY 1 ORDER BY 1`

/**
 * The day's sums straight from the ledger, entry by entry (the summary's query before migration 0010): the
 * oracle the summary must equal, and what it cost before.
 */
const ledgerSql = `
  SELECT count(*)::float8 AS rounds,
    (sum(t.debits) + sum(CASE WHEN t.debits = 0 THEN t.refunds ELSE 0 END))::text AS bets,
    sum(t.credits)::text AS wins, sum(t.refunds)::text AS refunds
  FROM rounds r
  CROSS JOIN LATERAL (
    SELECT count(*) AS entries,
      coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'debit'), 0) AS debits,
      coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'credit'), 0) AS credits,
      coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'refund'), 0) AS refunds
    FROM ledger_entries l WHERE l.round_id = r.id AND l.currency = $2
  ) t
  WHERE r.merchant_id = $1 AND r.mode = 'real' AND t.entries > 0
    AND r.created_at >= $3 AND r.created_at < $4`

/** A decimal amount of the answer ("1234.56") in minor units, as text. */
const minorOf = (amount: unknown) => BigInt(String(amount).replace(".", "")).toString()

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN

/** `times` timed GETs after one warm-up: p50 and max, ms, and the last answer. */
const time = async (url: string, key: string, times = runs) => {
  const once = async () => {
    const start = performance.now()
    const answer = await call(url, { headers: { "sv-api-key": key } })
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}: ${answer.text.slice(0, 300)}`)
    return { ms: performance.now() - start, answer }
  }
  let last = await once()
  const samples: Array<number> = []
  for (let i = 0; i < times; i++) samples.push((last = await once()).ms)
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 0.5), max: samples.at(-1) ?? NaN, body: last.answer.body }
}

/** One day of rounds as CSV: time to the first record, total, bytes, records and the gateway's peak RSS. */
const exportDay = async (url: string, key: string, pid: number) => {
  let peak = statusKb(pid, "VmRSS")
  const before = peak
  const sampler = setInterval(() => peak = Math.max(peak, statusKb(pid, "VmRSS")), 100)
  const start = performance.now()
  const answer = await fetch(url, { headers: { "sv-api-key": key, accept: "text/csv" } })
  const reader = answer.body?.getReader()
  if (answer.status !== 200 || reader === undefined) throw new Error(`the CSV export answered ${answer.status}`)
  let bytes = 0
  let records = -1
  let firstMs = NaN
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
    for (const byte of value) if (byte === 10) records++
    if (Number.isNaN(firstMs) && records > 0) firstMs = performance.now() - start
  }
  clearInterval(sampler)
  return { firstMs, totalMs: performance.now() - start, bytes, records, rssBeforeMb: before / 1024, rssPeakMb: peak / 1024 }
}

const main = async (scope: Scope.Scope) => {
  const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
  benchDatabase = databaseUrl
  const version = await serverVersion(databaseUrl)
  const env = gatewayEnv(databaseUrl)
  const gateway = await startGateway(env)
  const admin = { authorization: `Bearer ${await adminToken(gateway.authSecret)}` }
  const api = `${gateway.url}/api/v1.1/operator-api`
  const made: Array<{ id: number; key: string }> = []
  for (let i = 1; i <= merchants; i++) {
    const merchant = await call(`${api}/create`, {
      method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: `Reports ${i}`, email: `reports-${i}@bench.example`, providerId: 1 }
    })
    const id = Number(merchant.body.id)
    const issued = await call(`${api}/merchants/${id}/api-keys`, { method: "POST", headers: admin })
    if (merchant.status !== 201 || issued.status !== 201) throw new Error(`merchant ${i}: ${merchant.text} ${issued.text}`)
    made.push({ id, key: String(issued.body.apiKey) })
  }
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await timed(`seeding ${rounds.toLocaleString("en")} rounds and their ledger`, () => seed(client, made.map((m) => m.id)))
    await timed("VACUUM ANALYZE", () => client.query("VACUUM ANALYZE"))
    const sizes = await client.query<{ name: string; rows: string; size: string }>(
      `SELECT c.relname AS name, c.reltuples::bigint::text AS rows, pg_size_pretty(pg_total_relation_size(c.oid)) AS size
       FROM pg_class c WHERE c.relname IN ('rounds', 'ledger_entries', 'game_sessions', 'rounds_merchant_created_idx')
       ORDER BY c.relname`
    )
    const [first] = made
    if (first === undefined) throw new Error("no merchant")
    const period = `from=${day.from}&to=${day.to}`
    const summaries: Array<[string, Awaited<ReturnType<typeof time>>]> = []
    for (const groupBy of ["day", "game", "player"] as const) {
      const measured = await time(`${api}/reports/summary?${period}&groupBy=${groupBy}`, first.key)
      log(`summary of a day by ${groupBy}: p50 ${measured.p50.toFixed(1)} ms, max ${measured.max.toFixed(1)} ms`)
      summaries.push([`summary, one day, groupBy=${groupBy}`, measured])
    }
    const monthly = await time(`${api}/reports/summary?from=${month.from}&to=2026-10-31T00:00:00Z&groupBy=day`, first.key, 3)
    log(`summary of the month by day: p50 ${monthly.p50.toFixed(1)} ms`)
    summaries.push(["summary, the whole month, groupBy=day (3 runs)", monthly])
    const page = await time(`${api}/rounds?${period}&limit=100`, first.key)
    summaries.push(["rounds, one day, first page of 100 (JSON, with its count)", page])
    await client.query("SET jit = off") // as ReportsPg.summary runs it
    const plans: Array<string> = []
    for (const byPlayer of [false, true]) {
      const explain = await client.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${summarySql(byPlayer)}`,
        [first.id, "ETB", day.from, day.to]
      )
      plans.push(explain.rows.map((row) => row["QUERY PLAN"]).join("\n"))
    }
    // The answer must be the ledger's to the minor unit: the day's total against the ledger summed entry by entry,
    // timed once (cold for the ledger: what the summary cost before migration 0010).
    const ledgerStart = performance.now()
    const ledger = await client.query<{ rounds: number; bets: string; wins: string; refunds: string }>(ledgerSql, [first.id, "ETB", day.from, day.to])
    const ledgerMs = performance.now() - ledgerStart
    const total = (summaries[0]?.[1].body as { total?: Record<string, unknown> } | undefined)?.total ?? {}
    const answered = [total["rounds"], minorOf(total["bets"]), minorOf(total["wins"]), minorOf(total["refunds"])]
    const expected = ledger.rows.map((row) => [row.rounds, row.bets, row.wins, row.refunds])[0]
    if (JSON.stringify(answered) !== JSON.stringify(expected)) {
      throw new Error(`the day's summary ${JSON.stringify(answered)} is not the ledger's ${JSON.stringify(expected)}`)
    }
    log(`the day's summary equals the ledger's (summed from the ledger in ${ledgerMs.toFixed(0)} ms)`)
    const csv = await exportDay(`${api}/rounds?${period}`, first.key, gateway.pid)
    log(`CSV of a day: ${csv.records} records, ${(csv.bytes / 2 ** 20).toFixed(1)} MiB in ${(csv.totalMs / 1000).toFixed(1)} s`)
    const dayRounds = (summaries[0]?.[1].body as { total?: { rounds?: number } } | undefined)?.total?.rounds ?? 0
    // A day still being played: its rounds just updated (as closing and booking them does), not yet vacuumed, so
    // the visibility map no longer vouches for their pages and the index-only scan reads the heap too.
    await timed("updating the measured day's rounds", () =>
      client.query("UPDATE rounds SET updated_at = updated_at WHERE created_at >= $1 AND created_at < $2", [day.from, day.to])
    )
    const unvacuumed = await time(`${api}/reports/summary?${period}&groupBy=day`, first.key)
    log(`summary of a day by day, not vacuumed: p50 ${unvacuumed.p50.toFixed(1)} ms`)
    summaries.push(["summary, one day, groupBy=day, that day's rounds just updated (not vacuumed)", unvacuumed])
    const explainUnvacuumed = await client.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${summarySql(false)}`,
      [first.id, "ETB", day.from, day.to]
    )
    plans.push(explainUnvacuumed.rows.map((row) => row["QUERY PLAN"]).join("\n"))
    await gateway.stop()
    return { version, sizes: sizes.rows, summaries, plans, csv, dayRounds, ledgerMs }
  } finally {
    await client.end()
  }
}

const render = (r: Awaited<ReturnType<typeof main>>) => `# Reports bench, ${new Date().toISOString().slice(0, 10)}

\`npm run bench:reports\` (bench/reports.ts): a month (30 days of October 2026) of
${rounds.toLocaleString("en")} real rounds for ${merchants} merchants of ${playersPerMerchant.toLocaleString("en")} players each over ${games} games, with
their ledger as the wallet books it (a debit and a credit per settled round, a refund per failed one,
nothing for a refused one; the outbox is empty) and each round's ledger sums on it (migration 0010), seeded with SQL (foreign keys
and triggers off while seeding), then VACUUM ANALYZE. Each answer
is timed through the real server over HTTP on 127.0.0.1 (${runs} runs after one warm-up); the
merchant measured has a quarter of the rounds.

| fact | |
|---|---|
| date | ${new Date().toISOString()} |
| node | ${process.version} |
| machine | ${availableParallelism()} cores (${cpus()[0]?.model ?? "?"}), load average ${loadavg()[0]?.toFixed(2)} at the end, shared with PostgreSQL |
| PostgreSQL | ${r.version}, ${process.env["DATABASE_URL"] ? "the server at DATABASE_URL" : "embedded"}, a fresh database |
| tables | ${r.sizes.map((s) => `${s.name} ${Number(s.rows).toLocaleString("en")} rows, ${s.size}`).join("; ")} |
| the day measured | ${day.from} .. ${day.to}: ${r.dayRounds.toLocaleString("en")} rounds of the merchant |

| request | p50 ms | max ms |
|---|---:|---:|
${r.summaries.map(([name, m]) => `| ${name} | ${m.p50.toFixed(1)} | ${m.max.toFixed(1)} |`).join("\n")}

Target: a day's summary of a merchant in a 10-million-round month well under a second.

The day's summary equals its sums from the ledger, entry by entry, to the minor unit (checked); that query, the
summary's before migration 0010 (one probe of the ledger per round), took ${r.ledgerMs.toFixed(0)} ms once here.

**CSV export of that day** (\`Accept: text/csv\`, streamed in batches of 1,000 rounds):
${r.csv.records.toLocaleString("en")} records, ${(r.csv.bytes / 2 ** 20).toFixed(1)} MiB in ${(r.csv.totalMs / 1000).toFixed(1)} s
(${(r.csv.records / (r.csv.totalMs / 1000)).toFixed(0)} records/s), first record after ${r.csv.firstMs.toFixed(0)} ms;
gateway RSS ${r.csv.rssBeforeMb.toFixed(0)} MB before, ${r.csv.rssPeakMb.toFixed(0)} MB at most while streaming.

## EXPLAIN (ANALYZE, BUFFERS) of the day's summary, groupBy=day, then groupBy=player, then groupBy=day with that day's rounds just updated (\`jit = off\`, as the gateway runs it)

\`\`\`
${r.plans.join("\n\n")}
\`\`\`

Total bench time: ${elapsed()}.
`

let benchDatabase: string | undefined
const disarm = guard(Number(process.env["BENCH_TIMEOUT_SECONDS"] ?? 5400) * 1000)
const scope = Effect.runSync(Scope.make())
let exitCode = 0
try {
  const report = render(await main(scope))
  // A smaller month than the default is written beside the day's full run, not over it.
  publish(`-reports${rounds === 10_000_000 ? "" : `-${rounds}-rounds`}`, report)
} catch (error) {
  console.error("bench failed:", error)
  exitCode = 1
} finally {
  killAll()
  log("dropping the bench database")
  await closeOrDrop(scope, benchDatabase)
  disarm()
}
process.exit(exitCode)
