/**
 * `npm run scaleout` (issue 26, "one system of N instances"): three gateway
 * instances on one database and one Redis, behind HAProxy on loopback, as a
 * provider runs them behind a load balancer. Three phases, each checked:
 *
 * 1. **One key's budget across instances**: one API key asks for the games
 *    list as fast as 16 clients can for 10 s through the balancer, which
 *    spreads the requests over the three instances; the requests answered
 *    200 must be what one `RATE_LIMIT_BURST` + `RATE_LIMIT_RPS` × seconds
 *    allows, ±10 % (three in-process budgets would allow three times it).
 * 2. **One breaker for all instances**: the operator goes down (every
 *    Details call 503) under real-mode launches for 6 s; the calls it
 *    receives are bounded by one circuit's failures and probes, every
 *    instance answers 503 OPERATOR_UNAVAILABLE, and launches work again
 *    within seconds of the operator's return.
 * 3. **Bets while instances die**: real rounds through the balancer at 32
 *    connections for 24 s; one instance is killed (SIGKILL) at 6 s and one
 *    drained (SIGTERM: `/ready` 503 for SHUTDOWN_DRAIN_SECONDS, HAProxy's
 *    health check takes it out, then it stops) at 12 s. Every bet answered
 *    2xx must be debited once and credited once at the operator (by
 *    transaction id: a message the killed instance sent but had not marked
 *    is sent again under the same id, which the operator books once), and
 *    no round left debiting or message pending.
 *
 * Needs `haproxy` (Debian: `apt-get install haproxy`) and Redis at
 * `REDIS_URL` (default redis://127.0.0.1:6379); the database is
 * `DATABASE_URL`'s server or an embedded one. Writes
 * `bench/results/<date>-scaleout.md` and exits 1 when a check fails.
 */
import * as PgTest from "@gateway/adapters-pg/testing"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { fire, type Load } from "./autocannon.ts"
import { settledOnce } from "./bet-db.ts"
import { guard, killAll, startHelper, track } from "./children.ts"
import { type BenchGateway, gatewayEnv, startGateway } from "./gateways.ts"
import { fetchJson, numberField } from "./json.ts"
import { freePort } from "@gateway/server/testing"

const began = performance.now()
const log = (line: string) => console.log(`[${((performance.now() - began) / 1000).toFixed(0)} s] ${line}`)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const rps = 40
const burst = 40
const breakerFailures = 5
const breakerOpenMs = 1000

interface Check {
  readonly what: string
  readonly ok: boolean
  readonly detail: string
}
const checks: Array<Check> = []
const check = (what: string, ok: boolean, detail: string) => {
  checks.push({ what, ok, detail })
  log(`${ok ? "ok  " : "FAIL"} ${what}: ${detail}`)
}

const answers = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, host)
    socket.once("connect", () => {
      socket.end()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

/** HAProxy in the foreground on `port`, round robin over `servers`, taking out an instance whose /ready fails twice. */
const startBalancer = async (port: number, servers: ReadonlyArray<BenchGateway>) => {
  const dir = mkdtempSync(join(tmpdir(), "gw-haproxy-"))
  const config = join(dir, "haproxy.cfg")
  writeFileSync(config, [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 30s",
    "  timeout server 30s",
    "  retries 3",
    "  option redispatch",
    "frontend gateway",
    `  bind 127.0.0.1:${port}`,
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    "  option httpchk GET /ready",
    "  http-check expect status 200",
    "  default-server inter 300ms fall 2 rise 2",
    "  http-response set-header x-instance %[srv_name]",
    ...servers.map((s, i) => `  server g${i + 1} ${new URL(s.url).host} check`),
    ""
  ].join("\n"))
  const child = track(spawn("haproxy", ["-f", config, "-db"], { stdio: ["ignore", "pipe", "pipe"] }))
  let output = ""
  child.stdout.on("data", (d: Buffer) => output += d.toString())
  child.stderr.on("data", (d: Buffer) => output += d.toString())
  const deadline = Date.now() + 10_000
  while (!(await answers("127.0.0.1", port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`haproxy did not start: ${output}`)
    await sleep(100)
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output }
}

/** `parallel` clients sending `request` back to back for `ms`: every answer's status, code and instance. */
const hammer = async (ms: number, parallel: number, request: () => Promise<Response>) => {
  const seen: Array<{ readonly status: number; readonly code: string; readonly instance: string; readonly at: number }> = []
  const until = Date.now() + ms
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (Date.now() < until) {
      try {
        const answer = await request()
        const text = await answer.text()
        const code = /"code":"([A-Z_]+)"/.exec(text)?.[1] ?? ""
        seen.push({ status: answer.status, code, instance: answer.headers.get("x-instance") ?? "?", at: Date.now() })
      } catch {
        seen.push({ status: 0, code: "network", instance: "?", at: Date.now() })
      }
    }
  }))
  return seen
}

const tally = (seen: ReadonlyArray<{ readonly status: number; readonly code: string; readonly instance: string }>) => {
  const counts = new Map<string, number>()
  for (const s of seen) {
    const key = `${s.instance} ${s.status}${s.code === "" ? "" : ` ${s.code}`}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].sort().map(([k, n]) => `${k}: ${n}`).join(", ")
}

const main = async (scope: Scope.Scope) => {
  const redisUrl = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379"
  const redis = new URL(redisUrl)
  if (!(await answers(redis.hostname, Number(redis.port || 6379)))) throw new Error(`no Redis answers at ${redis.host} (REDIS_URL)`)
  const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
  const operator = await startHelper("operator.ts", {})
  const env = {
    ...gatewayEnv(databaseUrl),
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: `scaleout-${randomBytes(4).toString("hex")}:`,
    RATE_LIMIT_RPS: String(rps),
    RATE_LIMIT_BURST: String(burst),
    OPERATOR_BREAKER_FAILURES: String(breakerFailures),
    OPERATOR_BREAKER_OPEN_MS: String(breakerOpenMs),
    WEBHOOK_TIMEOUT_MS: "1000",
    DETAILS_TIMEOUT_MS: "1000",
    STALE_DEBIT_MARGIN_SECONDS: "3",
    SHUTDOWN_DRAIN_SECONDS: "3"
  }
  log("starting three instances and HAProxy")
  const instances = [await startGateway(env), await startGateway(env), await startGateway(env)] as const
  const balancer = await startBalancer(await freePort(), instances)
  const admin = { authorization: `Bearer ${await adminToken(instances[0].authSecret)}` }
  const api = `${balancer.url}/api/v1.1/operator-api`
  const created = await call(`${api}/create`, {
    method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Scale Out", email: "scale@out.example", providerId: 1 }
  })
  const merchantId = Number(created.body.id)
  await call(`${api}/merchants/${merchantId}/settings`, {
    method: "PUT", headers: admin,
    json: { userDetailsUrl: `${operator.url}/details`, webhookUrl: `${operator.url}/wallet`, minimumStake: 1, maximumStake: 500 }
  })
  const issueKey = async () => String((await call(`${api}/merchants/${merchantId}/api-keys`, { method: "POST", headers: admin })).body.apiKey)
  const budgetKey = await issueKey()
  const launchKey = await issueKey()

  // 1. One key's budget across instances
  log(`phase 1: one key, ${rps} requests/s and a burst of ${burst}, asked by 16 clients for 10 s through the balancer`)
  await sleep(1500) // the key's bucket full (the create and key calls above did not use it)
  const started = Date.now()
  const budget = await hammer(10_000, 16, () => fetch(`${api}/games`, { headers: { "sv-api-key": budgetKey } }))
  const seconds = (Math.max(...budget.map((b) => b.at)) - started) / 1000
  const allowed = burst + rps * seconds
  const ok = budget.filter((b) => b.status === 200).length
  const instancesServing = new Set(budget.filter((b) => b.status === 200).map((b) => b.instance)).size
  check(
    "one key's budget holds across instances (±10 %)",
    Math.abs(ok - allowed) <= 0.1 * allowed && instancesServing === 3,
    `${ok} answered 200 of ${budget.length} in ${seconds.toFixed(1)} s, one budget allows ${allowed.toFixed(0)}, ` +
      `three would allow ${(3 * allowed).toFixed(0)}; ${tally(budget)}`
  )

  // 2. One breaker for all instances
  log("phase 2: the operator down for 6 s under real-mode launches")
  const launch = (i: number) =>
    fetch(`${api}/games/generate-launch-url?gameId=odd-even&playerId=p-${i}&sessionId=s-${i}&mode=real`, {
      headers: { "sv-api-key": launchKey }
    })
  let n = 0
  await sleep(1500)
  const before = numberField(await fetchJson(`${operator.url}/count`, {}, 200), "down")
  await fetch(`${operator.url}/down`, { method: "POST" })
  const downFor = 6_000
  const down = await hammer(downFor, 4, () => launch(n++))
  await fetch(`${operator.url}/up`, { method: "POST" })
  const calls = numberField(await fetchJson(`${operator.url}/count`, {}, 200), "down") - before
  // One circuit: its failures in a row, the calls already in flight when it opened (4 clients), then one probe per
  // open period for all instances; three circuits would each take their failures and their own probes.
  const bound = breakerFailures + 4 + Math.ceil(downFor / breakerOpenMs) + 1
  const fastFails = down.filter((d) => d.status === 503 && d.code === "OPERATOR_UNAVAILABLE")
  const opened = instances.reduce((sum, g) => sum + g.gateway.output().split("operator circuit open").length - 1, 0)
  check(
    "one breaker opens for all instances",
    calls <= bound && new Set(fastFails.map((d) => d.instance)).size === 3,
    `the operator received ${calls} calls while down (bound for one shared circuit ${bound}; three circuits: at least ` +
      `${3 * breakerFailures + Math.ceil(downFor / breakerOpenMs)}); "circuit open" logged ${opened} times; ${tally(down)}`
  )
  const back = Date.now()
  let recovered = false
  while (Date.now() - back < 10_000) {
    const answer = await launch(n++)
    await answer.arrayBuffer()
    if (answer.status === 200) {
      recovered = true
      break
    }
    await sleep(100)
  }
  check("launches work again once the operator is back", recovered, `after ${((Date.now() - back) / 1000).toFixed(1)} s`)

  // 3. Bets while one instance is killed and one drained
  log("phase 3: real rounds at 32 connections for 24 s; g2 killed at 6 s, g3 drained at 12 s")
  await sleep(1500)
  const tokens: Array<string> = []
  for (let i = 0; i < 128; i++) {
    const launched = await call(`${api}/games/generate-launch-url?gameId=odd-even&playerId=b-${i}&sessionId=bs-${i}&mode=real`, {
      headers: { "sv-api-key": launchKey }
    })
    if (launched.status === 429) {
      i--
      await sleep(200)
      continue
    }
    const token = new URL(String(launched.body.url)).searchParams.get("token") ?? ""
    const opened = await call(`${balancer.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
    tokens.push(String(opened.body.sessionToken))
  }
  const answered = new Set<string>()
  const statuses = new Map<string, number>()
  let turn = 0
  const load: Load = {
    method: "POST",
    next: () => ({
      path: "/api/v1.1/game-api/rounds",
      headers: { authorization: `Bearer ${tokens[turn++ % tokens.length]}`, "content-type": "application/json" },
      body: JSON.stringify({ stake: "1.00", selection: "odd" })
    }),
    answered: (status, body) => {
      const code = status >= 300 ? /"code":"([A-Z_]+)"/.exec(body)?.[1] ?? body.slice(0, 60).replace(/\s+/g, " ") : ""
      const key = code === "" ? String(status) : `${status} ${code}`
      statuses.set(key, (statuses.get(key) ?? 0) + 1)
      const id = /"roundId":"([^"]+)"/.exec(body)?.[1]
      if (status >= 200 && status < 300 && id !== undefined) answered.add(id)
    }
  }
  const events: Array<string> = []
  const betsStarted = Date.now()
  const running = fire({ url: balancer.url, pid: instances[0].pid }, load, 32, 24)
  await sleep(6_000)
  instances[1].gateway.process.kill("SIGKILL")
  events.push(`g2 killed at ${((Date.now() - betsStarted) / 1000).toFixed(1)} s`)
  await sleep(6_000)
  const draining = instances[2].gateway.stop("SIGTERM")
  events.push(`g3 sent SIGTERM at ${((Date.now() - betsStarted) / 1000).toFixed(1)} s`)
  const drainedCode = await draining
  events.push(`g3 exited ${drainedCode} at ${((Date.now() - betsStarted) / 1000).toFixed(1)} s`)
  const { result } = await running
  const betSummary = `${result.requests.total} requests at 32 connections for 24 s, answers by status ` +
    `${JSON.stringify(Object.fromEntries(statuses))}, ${result.errors} connection errors or time-outs; ${events.join("; ")}`
  log(`bets: ${betSummary}`)
  const settled = await settledOnce(databaseUrl, operator.url, "gateway", answered)
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  const { rows } = await db.query<{ status: string; n: number }>("SELECT status, count(*)::int AS n FROM rounds GROUP BY status ORDER BY status")
  await db.end()
  const byStatus = rows.map((r) => `${r.status} ${r.n}`).join(", ")
  check(
    "every bet answered 2xx is debited once and credited once, nothing booked twice, nothing left pending",
    settled.drained && settled.booked === settled.answered && settled.debitedOnce === settled.answered &&
      settled.creditedOnce === settled.answered && settled.doubles === 0 && !byStatus.includes("debiting"),
    `${settled.answered} answered, ${settled.booked} booked once each way, the operator debited ${settled.debitedOnce} and ` +
      `credited ${settled.creditedOnce} once (by transaction id), ${settled.doubles} booked twice, ${settled.repeats} messages ` +
      `delivered again under the same id (sent by the killed instance, not marked before it died), drained ` +
      `${settled.drained}; rounds by status: ${byStatus}`
  )
  check("the drained instance exits 0", drainedCode === 0, `exit code ${drainedCode}`)

  const lines = [
    `# Scale-out run, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    "`npm run scaleout` (bench/scaleout.ts): three gateway instances on one PostgreSQL and one Redis behind HAProxy",
    `${execFileSync("haproxy", ["-v"], { encoding: "utf8" }).split("\n")[0]} on loopback, ` +
      `2 shared cores. RATE_LIMIT_RPS ${rps}, RATE_LIMIT_BURST ${burst}, OPERATOR_BREAKER_FAILURES ${breakerFailures}, ` +
      `OPERATOR_BREAKER_OPEN_MS ${breakerOpenMs}.`,
    "",
    "| check | result | figures |",
    "|---|---|---|",
    ...checks.map((c) => `| ${c.what} | ${c.ok ? "ok" : "FAILED"} | ${c.detail.replace(/\|/g, "/")} |`),
    "",
    `Bets: ${betSummary}.`,
    ""
  ]
  mkdirSync(join(import.meta.dirname, "results"), { recursive: true })
  const file = join(import.meta.dirname, "results", `${new Date().toISOString().slice(0, 10)}-scaleout.md`)
  writeFileSync(file, lines.join("\n"))
  log(`written ${file}`)
  for (const instance of instances) await instance.stop()
  return checks.every((c) => c.ok)
}

const disarm = guard(10 * 60_000)
const scope = Effect.runSync(Scope.make())
const passed = await main(scope).catch((error: unknown) => {
  console.error(error)
  return false
})
disarm()
killAll()
await Effect.runPromise(Scope.close(scope, Exit.void))
process.exit(passed ? 0 : 1)
