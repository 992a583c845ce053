/**
 * `npm run bench:isolation` — one merchant's heaviest reports against another merchant's real-money bets
 * (issue 21, findings 1 and 2). The gateway runs as `npm start` runs it (the bundle, --max-old-space-size=128),
 * the operator stub (`bench/operator.ts`, a wallet answering at once) and the report load (this file with
 * `--reports`) each in a process of their own.
 *
 * 1. Seeds merchant A with ISOLATION_ROUNDS real rounds (500,000) of ISOLATION_PLAYERS players (200,000,
 *    127-character ids) over the last day, directly in SQL (apps/server/testing/Seed.ts).
 * 2. Merchant B's bettors (ISOLATION_BETTORS, 8, one session each) bet for ISOLATION_SECONDS (30) alone: the
 *    unloaded latencies.
 * 3. The same again while A's report load runs: ISOLATION_REPORTERS (12) loops of summaries by player, day and
 *    game over the month, `rounds?playerId=nope…` deep pages, and CSV exports of the month (rounds and summary).
 *    The gateway's resident memory is sampled every 250 ms. ISOLATION_NO_CSV=true leaves the two CSV exports out.
 *    Steps 2 and 3 take turns, ISOLATION_WINDOWS (3) of each, so that a shared machine's changing load weighs on
 *    both alike; the gateway's event-loop delay is read per turn (bench/eventLoopDelay.ts, preloaded).
 *
 * Writes bench/results/<date>-isolation.md and prints it. The target: B's p99 under load within 2× of its
 * unloaded p99, no 5xx, the process alive (its heap under its limit).
 *
 * DATABASE_URL: a PostgreSQL server to create a throw-away database on; else an embedded one.
 */
import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import pg from "pg"
import { spawnGateway } from "@gateway/server/testing"
import { seedRounds } from "@gateway/server/testing/Seed"
import { killAll, track } from "./children.ts"

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const rounds = env("ISOLATION_ROUNDS", 500_000)
const players = env("ISOLATION_PLAYERS", 200_000)
const bettors = env("ISOLATION_BETTORS", 8)
const seconds = env("ISOLATION_SECONDS", 30)
const reporters = env("ISOLATION_REPORTERS", 12)
const windows = Math.max(1, env("ISOLATION_WINDOWS", 3))

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}
const ms = (value: number) => `${value.toFixed(1)} ms`

/**
 * The report load: `reporters` loops over A's heaviest reports until `until`, when what is still downloading is cut
 * (`cut`); prints `{status: count}` at the end.
 */
const reportUrls = (api: string, from: string, to: string) => {
  const range = `from=${from}&to=${to}`
  return [
    [`${api}/reports/summary?${range}&groupBy=player&limit=100&page=7`, "application/json"],
    [`${api}/reports/summary?${range}&groupBy=day`, "application/json"],
    [`${api}/reports/summary?${range}&groupBy=game`, "application/json"],
    [`${api}/rounds?${range}&playerId=nope-${randomBytes(4).toString("hex")}&page=100&limit=100`, "application/json"],
    [`${api}/rounds?${range}&page=100&limit=100`, "application/json"],
    [`${api}/rounds?${range}`, "text/csv"],
    [`${api}/reports/summary?${range}&groupBy=player`, "text/csv"]
  ] as const
}

const reportLoad = async (api: string, key: string, from: string, to: string, until: number) => {
  const urls = reportUrls(api, from, to)
  const chosen = process.env["ISOLATION_NO_CSV"] === "true"
    ? urls.filter(([, accept]) => accept !== "text/csv")
    : process.env["ISOLATION_ONLY_CSV"] === "true"
    ? urls.filter(([, accept]) => accept === "text/csv")
    : urls
  const statuses = new Map<string, number>()
  const started = process.resourceUsage()
  const startCpu = started.userCPUTime + started.systemCPUTime
  await Promise.all(Array.from({ length: reporters }, async (_, i) => {
    for (let n = i; Date.now() < until; n++) {
      const [url, accept] = chosen[n % chosen.length] ?? urls[0]
      try {
        const signal = AbortSignal.any([AbortSignal.timeout(60_000), AbortSignal.timeout(Math.max(1, until - Date.now()))])
        const answer = await fetch(url, { headers: { "sv-api-key": key, accept }, signal })
        const body = answer.body?.getReader()
        if (body !== undefined) for (;;) if ((await body.read()).done) break
        const label = `${answer.status}${accept === "text/csv" ? " csv" : ""}`
        statuses.set(label, (statuses.get(label) ?? 0) + 1)
        if (answer.status === 429) await new Promise((resolve) => setTimeout(resolve, 200))
      } catch (error) {
        if (Date.now() >= until) {
          statuses.set("cut", (statuses.get("cut") ?? 0) + 1)
          continue
        }
        statuses.set(`error ${String(error).slice(0, 40)}`, (statuses.get(`error ${String(error).slice(0, 40)}`) ?? 0) + 1)
      }
    }
  }))
  const used = process.resourceUsage()
  const cpuMs = Math.round((used.userCPUTime + used.systemCPUTime - startCpu) / 1000)
  process.stdout.write(`${JSON.stringify({ statuses: Object.fromEntries(statuses), cpuMs })}\n`)
}

// The report load's process is started before the turn and says `ready`; it starts when given the turn's end on
// stdin, so that its own start (~0.7 s of CPU, ~3 s on a busy machine) falls in no turn.
if (process.argv[2] === "--reports") {
  const [api = "", key = "", from = "", to = ""] = process.argv.slice(3)
  const input = createInterface({ input: process.stdin })
  const until = new Promise<string>((resolve) => input.once("line", resolve))
  process.stdout.write("ready\n")
  await reportLoad(api, key, from, to, Number(await until))
  process.exit(0)
}

const firstLine = (child: ReturnType<typeof spawn>) =>
  new Promise<string>((resolve, reject) => {
    if (child.stdout === null) return reject(new Error("no stdout"))
    createInterface({ input: child.stdout }).once("line", resolve)
    child.once("exit", (code) => reject(new Error(`exited with ${code}`)))
  })

const rssKiB = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN)
  } catch {
    return NaN
  }
}

/**
 * The CPU time PostgreSQL spent for this database's connections, split into the reports' and the rest (bets,
 * launches, jobs): each backend's utime + stime from /proc (the database is local), a backend counted as the
 * reports' once its last statement was a report's (it never changes pool). Backends that ended between two samples
 * lose their last part; the pools' connections live for the whole run.
 */
const reportQuery = /summary_groups|WITH batch AS|AS MATERIALIZED|count\(\*\)::float8 AS total|BEGIN READ ONLY|jit = off/
const backendCpu = (monitor: pg.Client) => {
  const seen = new Map<number, number>()
  const reports = new Set<number>()
  const totals = { reports: 0, other: 0 }
  const ticksMs = 10 // CLK_TCK 100
  const sample = async () => {
    const { rows } = await monitor.query<{ pid: number; query: string }>(
      `SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND backend_type = 'client backend'`
    )
    for (const { pid, query } of rows) {
      if (reportQuery.test(query)) reports.add(pid)
      let used: number
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
        used = (Number(fields[11]) + Number(fields[12])) * ticksMs
      } catch {
        continue
      }
      if (!Number.isFinite(used)) continue
      const delta = used - (seen.get(pid) ?? 0)
      seen.set(pid, used)
      if (reports.has(pid)) totals.reports += delta
      else totals.other += delta
    }
  }
  return {
    sample,
    /** The CPU ms since the last call, as `{ reports, other }`. */
    take: async () => {
      await sample()
      const taken = { ...totals }
      totals.reports = 0
      totals.other = 0
      return taken
    }
  }
}

const scope = Effect.runSync(Scope.make())
process.on("exit", killAll)
let databaseUrl = ""
try {
  databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
  const operator = track(spawn(process.execPath, [join(import.meta.dirname, "operator.ts")], { stdio: ["pipe", "pipe", "inherit"] }))
  const operatorUrl = `http://127.0.0.1:${JSON.parse(await firstLine(operator)).port}`
  // The gateway's event-loop delay, read per phase (bench/eventLoopDelay.ts)
  process.env["GATEWAY_NODE_OPTIONS"] = `${process.env["GATEWAY_NODE_OPTIONS"] ?? ""} --import ${join(import.meta.dirname, "eventLoopDelay.ts")}`
  const gw = await spawnGateway({
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ALLOW_PRIVATE_OPERATOR_URLS: "true",
    RATE_LIMIT_RPS: "0",
    LOG_LEVEL: "Warn",
    // The budgets and time-outs to try, from the bench's own environment (REPORTS_*, DATABASE_STATEMENT_TIMEOUT_MS)
    ...Object.fromEntries(Object.entries(process.env).flatMap(([name, value]) =>
      value !== undefined && (name.startsWith("REPORTS_") || name === "DATABASE_STATEMENT_TIMEOUT_MS") ? [[name, value]] : []
    ))
  })
  track(gw.process)
  const pid = gw.process.pid ?? 0
  const admin = { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
  const api = `${gw.url}/api/v1.1/operator-api`
  const merchant = async (email: string) => {
    const created = await call(`${api}/create`, {
      method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Isolation", email, providerId: 1 }
    })
    await call(`${api}/merchants/${created.body.id}/settings`, {
      method: "PUT", headers: admin,
      json: { userDetailsUrl: `${operatorUrl}/details`, webhookUrl: `${operatorUrl}/wallet`, minimumStake: 1, maximumStake: 500 }
    })
    const key = String((await call(`${api}/merchants/${created.body.id}/api-keys`, { method: "POST", headers: admin })).body.apiKey)
    return { id: Number(created.body.id), key }
  }
  const heavy = await merchant("heavy@isolation.example")
  const better = await merchant("better@isolation.example")

  const db = new pg.Client({ connectionString: databaseUrl })
  db.on("error", () => undefined) // the database dropped at the end under a run that failed
  await db.connect()
  const to = new Date()
  const from = new Date(to.getTime() - 30 * 86_400_000)
  const seedStarted = performance.now()
  await seedRounds(db, { merchantId: heavy.id, rounds, players, idLength: 127, before: to })
  const pgCpu = backendCpu(db)
  console.log(`seeded ${rounds} rounds of ${players} players in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`)

  const sessions = await Promise.all(Array.from({ length: bettors }, async (_, i) => {
    const launched = await call(`${api}/games/generate-launch-url?gameId=odd-even&playerId=b-${i}&sessionId=s-${i}`, {
      headers: { "sv-api-key": better.key }
    })
    const token = new URL(launched.body.url).searchParams.get("token") ?? ""
    const opened = await call(`${gw.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
    return String(opened.body.sessionToken)
  }))
  const bet = async (sessionToken: string) => {
    const started = performance.now()
    const answer = await fetch(`${gw.url}/api/v1.1/game-api/rounds`, {
      method: "POST",
      headers: { authorization: `Bearer ${sessionToken}`, "content-type": "application/json" },
      body: JSON.stringify({ stake: "1.00", selection: "odd" })
    })
    await answer.arrayBuffer()
    return { status: answer.status, ms: performance.now() - started }
  }
  const betFor = async (durationMs: number) => {
    const until = Date.now() + durationMs
    const results: Array<{ status: number; ms: number }> = []
    await Promise.all(sessions.map(async (session) => {
      while (Date.now() < until) results.push(await bet(session))
    }))
    return results
  }
  const summarise = (results: ReadonlyArray<{ status: number; ms: number }>) => {
    const latencies = results.map((r) => r.ms)
    return {
      bets: results.length,
      failed: results.filter((r) => r.status !== 200).length,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies)
    }
  }

  const eventLoopDelay = async () => {
    const before = gw.output().length
    gw.process.kill("SIGUSR2")
    for (let i = 0; i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      const line = /event-loop-delay (\{.*\})/.exec(gw.output().slice(before))?.[1]
      if (line !== undefined) {
        const figures: { max: number; p99: number; p999: number; mean: number; cpuMs: number } = JSON.parse(line)
        return figures
      }
    }
    return { max: NaN, p99: NaN, p999: NaN, mean: NaN, cpuMs: NaN }
  }
  // ISOLATION_TIMED=true: each of A's reports once, alone (no bets, nothing else of A's), timed to its last byte
  const timed: Array<string> = []
  if (process.env["ISOLATION_TIMED"] === "true") {
    for (const [url, accept] of reportUrls(api, from.toISOString(), to.toISOString())) {
      const started = performance.now()
      // A 429 is waited out as its retry-after says, as a client would, and counted in the time
      let answer = await fetch(url, { headers: { "sv-api-key": heavy.key, accept } })
      let refused = 0
      while (answer.status === 429 && refused < 5) {
        refused++
        await answer.arrayBuffer()
        await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get("retry-after") ?? 1) * 1000))
        answer = await fetch(url, { headers: { "sv-api-key": heavy.key, accept } })
      }
      let bytes = 0
      const body = answer.body?.getReader()
      if (body !== undefined) {
        for (;;) {
          const { done, value } = await body.read()
          if (done) break
          bytes += value.byteLength
        }
      }
      const what = url.slice(api.length).replace(/from=[^&]*&to=[^&]*/, "{month}").replace(/nope-[0-9a-f]+/, "nope…")
      timed.push(`| \`${what}\`${accept === "text/csv" ? " as CSV" : ""} | ${answer.status}${refused > 0 ? ` (after ${refused} × 429)` : ""} | ${((performance.now() - started) / 1000).toFixed(1)} s | ${(bytes / 1048576).toFixed(1)} MiB |`)
      console.log(timed.at(-1))
      await new Promise((resolve) => setTimeout(resolve, 5_000)) // the merchant's database time back
    }
  }
  await betFor(3_000) // warm-up
  const load1 = () => loadavg()[0]?.toFixed(1) ?? "?"
  const loadBefore = load1()
  // Alone and under A's reports in turns (ISOLATION_WINDOWS of each, ISOLATION_SECONDS in all for each), so that the
  // load other work puts on a shared machine weighs on both alike: one 30 s run of each, minutes apart, moved the
  // unloaded p99 between 86 and 495 ms.
  const windowMs = (seconds * 1000) / windows
  const aloneResults: Array<{ status: number; ms: number }> = []
  const loadedResults: Array<{ status: number; ms: number }> = []
  const turnP99 = { alone: [] as Array<number>, loaded: [] as Array<number> }
  const delaysAlone: Array<Awaited<ReturnType<typeof eventLoopDelay>>> = []
  const delaysLoaded: Array<Awaited<ReturnType<typeof eventLoopDelay>>> = []
  const reportStatuses: Record<string, number> = {}
  const loadCpuMs: Array<number> = []
  const pgAlone: Array<{ reports: number; other: number }> = []
  const pgLoaded: Array<{ reports: number; other: number }> = []
  let peakRss = rssKiB(pid)
  await eventLoopDelay()
  await pgCpu.take()
  for (let w = 0; w < windows; w++) {
    const load = track(spawn(process.execPath, [
      import.meta.filename, "--reports", api, heavy.key, from.toISOString(), to.toISOString()
    ], { stdio: ["pipe", "pipe", "inherit"], env: process.env }))
    const loadLines = createInterface({ input: load.stdout! })[Symbol.asyncIterator]()
    if ((await loadLines.next()).value !== "ready") throw new Error("the report load did not start")
    const aloneTurn = await betFor(windowMs)
    aloneResults.push(...aloneTurn)
    turnP99.alone.push(percentile(aloneTurn.map((r) => r.ms), 99))
    delaysAlone.push(await eventLoopDelay())
    pgAlone.push(await pgCpu.take())
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssKiB(pid))
      pgCpu.sample().catch(() => undefined)
    }, 250)
    const until = Date.now() + windowMs
    load.stdin!.write(`${until}\n`)
    const loadResult = loadLines.next().then((line) => String(line.value))
    const loadedTurn = await betFor(windowMs)
    loadedResults.push(...loadedTurn)
    turnP99.loaded.push(percentile(loadedTurn.map((r) => r.ms), 99))
    const { statuses, cpuMs }: { statuses: Record<string, number>; cpuMs: number } = JSON.parse(await loadResult)
    loadCpuMs.push(cpuMs)
    for (const [status, count] of Object.entries(statuses)) reportStatuses[status] = (reportStatuses[status] ?? 0) + count
    clearInterval(sampler)
    delaysLoaded.push(await eventLoopDelay())
    pgLoaded.push(await pgCpu.take())
    await new Promise((resolve) => setTimeout(resolve, 500)) // the cut downloads' streams end in the gateway
    await eventLoopDelay()
    await pgCpu.take()
  }
  const unloaded = summarise(aloneResults)
  const loaded = summarise(loadedResults)
  const loadLoaded = load1()
  const delays = (list: typeof delaysAlone, key: "p99" | "max" | "cpuMs") => list.map((d) => d[key]).join(" / ")
  await db.end()
  const pgFigures = (list: typeof pgAlone, key: "reports" | "other") => list.map((d) => d[key]).join(" / ")
  const alive = gw.process.exitCode === null && (await fetch(`${gw.url}/health`)).status === 200
  console.log(`loaded: ${JSON.stringify(loaded)}; event-loop delay alone ${JSON.stringify(delaysAlone)}, loaded ${JSON.stringify(delaysLoaded)}; reports: ${JSON.stringify(reportStatuses)}; peak RSS ${peakRss} KiB; alive ${alive}`)

  const ratio = loaded.p99 / unloaded.p99
  const held = ratio <= 2 && loaded.failed === 0 && alive
  const date = new Date().toISOString().slice(0, 10)
  const report = `# Isolation: one merchant's reports against another's bets — ${date}

\`npm run bench:isolation\` (bench/isolation.ts). Merchant A: ${rounds.toLocaleString("en")} real rounds of
${players.toLocaleString("en")} players (127-character ids) over the last day. Merchant B: ${bettors} bettors, one
real-money bet each at a time (\`POST game-api/rounds\`, the stub wallet answering at once), ${seconds} s alone and
${seconds} s while ${reporters} loops of A's reports run, in ${windows} turns of each (what downloads at the end of a turn is cut) (summary by player page 7 / day / game over the month,
\`rounds?playerId=nope…&page=100&limit=100\`, \`rounds?page=100&limit=100\`${
    process.env["ISOLATION_NO_CSV"] === "true"
      ? "; no CSV export (ISOLATION_NO_CSV)"
      : process.env["ISOLATION_ONLY_CSV"] === "true"
      ? "; only the CSV exports: the month's rounds CSV and its summary by player as CSV (ISOLATION_ONLY_CSV)"
      : ", the month's rounds CSV and its summary by player as CSV"
  }). The gateway as \`npm start\` runs it (--max-old-space-size=128); budgets and time-outs: ${
    ["REPORTS_MAX_PER_MERCHANT", "REPORTS_MAX_CONCURRENT", "REPORTS_DB_CONNECTIONS", "REPORTS_STATEMENT_TIMEOUT_MS", "REPORTS_EXPORT_PAUSE_MS",
      "REPORTS_MAX_EXPORTS", "REPORTS_DB_SHARE", "REPORTS_DB_SHARE_TOTAL", "REPORTS_DB_BURST_MS", "REPORTS_DB_STATEMENTS",
      "DATABASE_STATEMENT_TIMEOUT_MS"].map((name) => `${name} ${process.env[name] ?? "(default)"}`).join(", ")
  }. Machine: ${process.env["ISOLATION_MACHINE"] ?? "2 shared cores"}; database:
${process.env["DATABASE_URL"] === undefined ? "embedded PostgreSQL" : "the local PostgreSQL 15"}.

| B's bets | bets | failed | p50 | p99 | max |
|---|---|---|---|---|---|
| alone | ${unloaded.bets} | ${unloaded.failed} | ${ms(unloaded.p50)} | ${ms(unloaded.p99)} | ${ms(unloaded.max)} |
| under A's reports | ${loaded.bets} | ${loaded.failed} | ${ms(loaded.p50)} | ${ms(loaded.p99)} | ${ms(loaded.max)} |

- The gateway's event-loop delay (how long a ready bet waits for the loop; \`monitorEventLoopDelay\`, ms, per
  window): alone p99 ${delays(delaysAlone, "p99")}, max ${delays(delaysAlone, "max")}; under A's reports p99
  ${delays(delaysLoaded, "p99")}, max ${delays(delaysLoaded, "max")}. The gateway's CPU time per turn: alone
  ${delays(delaysAlone, "cpuMs")} ms, under A's reports ${delays(delaysLoaded, "cpuMs")} ms (of ${(windowMs / 1000).toFixed(0)} s each); the report load's
  own process (it reads every CSV as fast as it comes, on the same machine; started before the turn) ${loadCpuMs.join(" / ")} ms.
- PostgreSQL's CPU time per turn for this database (its backends' utime + stime): alone, bets and the rest
  ${pgFigures(pgAlone, "other")} ms; under A's reports, bets and the rest ${pgFigures(pgLoaded, "other")} ms, the reports'
  connections ${pgFigures(pgLoaded, "reports")} ms.
- B's p99 per turn: alone ${turnP99.alone.map(ms).join(" / ")}; under A's reports ${turnP99.loaded.map(ms).join(" / ")}.
- p99 under load / p99 alone: **${ratio.toFixed(2)}×** (target ≤ 2×): ${ratio <= 2 ? "held" : "NOT held"}.
- A's reports answered: ${Object.entries(reportStatuses).map(([status, count]) => `${status}: ${count}`).join(", ")}
  (429 is REPORTS_BUSY, the budget refusing a report at once; 503 REPORT_TIMEOUT a query past its time-out).
- The gateway's peak resident memory while the reports ran: ${(peakRss / 1024).toFixed(1)} MiB; the process
  ${alive ? "stayed up (no heap out-of-memory)" : "DIED"}.
- The machine's 1-minute load average (other work shares it): ${loadBefore} before, ${loadLoaded} after.
- Verdict: ${held ? "every target holds" : "a target failed"}.
${timed.length === 0 ? "" : `
Each of A's reports alone, one after another 5 s apart, before the turns (no bets, nothing else of A's running), to
its last byte (a 429 waited out as its \`retry-after\` says, and counted):

| report | status | time | size |
|---|---|---|---|
${timed.join("\n")}
`}`
  const file = join(import.meta.dirname, "results", `${date}-isolation${process.env["ISOLATION_LABEL"] ?? ""}.md`)
  writeFileSync(file, report)
  console.log(report)
  console.log(`written to ${file}`)
  await gw.stop(process.env["GATEWAY_NODE_OPTIONS"]?.includes("--cpu-prof") === true ? "SIGTERM" : "SIGKILL")
  operator.kill("SIGTERM")
  process.exitCode = held ? 0 : 1
} finally {
  killAll()
  // The throw-away database (600 MB at the default size) is dropped by a client of its own: the scope's pooled
  // one did not always get to it before the process ended. The scope is then closed, never waited on for long.
  if (databaseUrl !== "") {
    const server = new URL(databaseUrl)
    const name = server.pathname.slice(1)
    server.pathname = "/postgres"
    const admin = new pg.Client({ connectionString: server.href })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await admin.end()
  }
  await Promise.race([
    Effect.runPromise(Scope.close(scope, Exit.void)),
    new Promise((resolve) => setTimeout(resolve, 10_000).unref())
  ])
  process.exit()
}
