/**
 * `npm run bench`: the gateway against a plain baseline on one PostgreSQL
 * database, in one run; see bench/README.md. Environment: DATABASE_URL
 * (else an embedded PostgreSQL), BENCH_SECONDS (5), BENCH_QUICK=1 (16
 * connections only, 2 s runs), BENCH_MESSAGES (20000), BENCH_TIMEOUT_SECONDS,
 * BENCH_ONLY (parts to run, e.g. `search,launch,delivery`).
 */
import { Effect, Redacted, Scope } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import * as PgTest from "@gateway/adapters-pg/testing"
import { measure, type Run, type Target } from "./autocannon.ts"
import { guard, killAll, killStrayChildren, startHelper } from "./children.ts"
import { compareServers } from "./equivalence.ts"
import { type Drain, drainPlain, drainWorker, outboxEmpty } from "./drain.ts"
import { type BenchGateway, createMerchant, type CreatedMerchant, gatewayEnv, loggedKinds, startGateway, type Supervised, supervise } from "./gateways.ts"
import { memoryWatch } from "./proc.ts"
import { describe as describeProbe, wakeupCost } from "./wakeup.ts"
import { startToReady } from "./ready.ts"
import { type Deliveries, medianPair, type Pair, publish, render, type Results, type Row } from "./report.ts"
import { operatorScenarios, roundScenario, type Scenario } from "./scenarios.ts"
import { closeOrDrop, seed, serverVersion } from "./seed.ts"
import { openSessions, rotation } from "./sessions.ts"

const quick = process.env["BENCH_QUICK"] === "1"
const seconds = Number(process.env["BENCH_SECONDS"] ?? (quick ? 2 : 3))
/** BENCH_CONNECTIONS: the connection counts to run at, comma-separated (e.g. `1` to profile one client's round trips). */
const levels = process.env["BENCH_CONNECTIONS"]?.split(",").map(Number).filter((n) => Number.isInteger(n) && n > 0) ??
  (quick ? [16] : [1, 16, 64])
const messages = Number(process.env["BENCH_MESSAGES"] ?? (quick ? 2000 : 20_000))
/** BENCH_ONLY: the scenarios whose name starts with one of these words (and `delivery` for the drains); all when unset. */
const only = process.env["BENCH_ONLY"]?.split(",").map((part) => part.trim()).filter((part) => part !== "")
const selected = (name: string) => only === undefined || only.some((part) => name.startsWith(part))
const drainTimeoutMs = Math.max(30_000, messages * 6)
const runs = (quick ? 12 : 32) * levels.length
const budgetSeconds = Number(process.env["BENCH_TIMEOUT_SECONDS"] ?? runs * (seconds + 4) + (3 * drainTimeoutMs) / 1000 + 180)

const began = performance.now()
const loadAtStart = loadavg()[0] ?? 0
const elapsed = () => `${((performance.now() - began) / 1000).toFixed(0)} s`
const log = (line: string) => console.log(`[${elapsed()}] ${line}`)
const brief = (run: Run) =>
  `${run.rps.toFixed(0)} req/s, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms` +
  (run.non2xx + run.errors > 0 ? `, non-2xx ${run.non2xx} ${JSON.stringify(run.statuses)}, errors ${run.errors}` : "")

const notes: Array<string> = []
const memory = memoryWatch()

const restartIfExited = async (gateway: Supervised, during: string) => {
  const event = await gateway.ensureAlive(during)
  if (event === undefined) return
  log(event)
  notes.push(event)
}

/**
 * Runs per endpoint and connection count that has a baseline: the gateway and the baseline in turn, this many
 * times. One run of each, 5 s apiece, moved a ratio by a third between runs minutes apart (the same code gave
 * games page at 1 connection 7.26× and 4.53×): pairs close in time see the same machine, and the row is the pair
 * of the median ratio, as for the drains.
 */
const endpointPairs = quick ? 1 : 3

/** Each scenario at each connection count: the gateway and the baseline in turn (when it has the endpoint). */
const measureAll = async (scenarios: ReadonlyArray<Scenario>, gateway: Supervised, baselineTarget: Target): Promise<Array<Row>> => {
  const rows: Array<Row> = []
  for (const scenario of scenarios.filter((s) => selected(s.name))) {
    for (const connections of levels) {
      const pairs: Array<Pair> = []
      for (let i = 1; i <= (scenario.baseline ? endpointPairs : 1); i++) {
        const label = `${scenario.name} @${connections}${scenario.baseline && endpointPairs > 1 ? ` (pair ${i})` : ""}`
        await restartIfExited(gateway, `the runs before ${label}`)
        const onGateway = await measure(gateway.current(), scenario.load, connections, seconds)
        log(`${label} gateway: ${brief(onGateway)}`)
        await restartIfExited(gateway, `${label} (that row is not valid)`)
        const onBaseline = scenario.baseline ? await measure(baselineTarget, scenario.load, connections, seconds) : undefined
        if (onBaseline !== undefined) log(`${label} baseline: ${brief(onBaseline)}`)
        for (const [who, run] of [["gateway", onGateway], ["baseline", onBaseline]] as const) {
          if (run !== undefined && run.non2xx + run.errors > 0) {
            notes.push(`${label}, ${who}: statuses ${JSON.stringify(run.statuses)}, errors ${run.errors}`)
          }
        }
        pairs.push({ gateway: onGateway, baseline: onBaseline })
      }
      rows.push(medianPair(scenario.name, connections, pairs))
    }
  }
  return rows
}

/**
 * Every endpoint for 3 s (1 + 2) at 16 connections on both servers, unmeasured, before the first measured run: the
 * first pair at 1 connection (the first runs of all) had come out a third below the two after it on the same
 * code (games page 4.65× then 6.74×, 8.15×; search 14.0× then 20.4×, 21.0×) — the servers' code not yet
 * optimised by V8 after a 1 s warm-up at one connection. Production servers run warm.
 */
const warmUp = async (scenarios: ReadonlyArray<Scenario>, gateway: Supervised, baselineTarget: Target): Promise<void> => {
  for (const scenario of scenarios.filter((s) => selected(s.name))) {
    await measure(gateway.current(), scenario.load, 16, 2)
    if (scenario.baseline) await measure(baselineTarget, scenario.load, 16, 2)
  }
}

/**
 * The floor row: the games page on the gateway (kept encoded after its first answer) against bare `node:http`
 * answering the same bytes (floor.ts), in pairs as for the baselines.
 */
const measureFloor = async (gateway: Supervised, seeded: Parameters<typeof operatorScenarios>[0]): Promise<Array<Row>> => {
  const [page] = operatorScenarios(seeded)
  if (page === undefined) return []
  const sample = page.load.next()
  const answer = await fetch(`${gateway.current().url}${sample.path}`, { headers: sample.headers })
  const dir = mkdtempSync(join(tmpdir(), "bench-floor-"))
  const file = join(dir, "page.json")
  writeFileSync(file, Buffer.from(await answer.arrayBuffer()))
  const floor = await startHelper("floor.ts", {
    FLOOR_BODY_FILE: file,
    FLOOR_CONTENT_TYPE: answer.headers.get("content-type") ?? "application/json"
  })
  try {
    await measure(floor, page.load, 16, 2)
    const rows = await measureAll([{ ...page, name: "games page vs bare node:http (floor)" }], gateway, floor)
    return rows
  } finally {
    await floor.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The bench's own database, dropped at the end. */
let benchDatabase: string | undefined

const main = async (scope: Scope.Scope): Promise<Results> => {
  // The machine first, while nothing else of the bench runs: what a message costs a process busy and asleep.
  const probe = describeProbe(await wakeupCost())
  log(`machine probe: ${probe}`)
  const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
  benchDatabase = databaseUrl
  const database = `PostgreSQL ${await serverVersion(databaseUrl)}, ${
    process.env["DATABASE_URL"] ? "the server at DATABASE_URL" : "embedded (throw-away)"
  }, a fresh database`
  const operator = await startHelper("operator.ts", {})
  const env = gatewayEnv(databaseUrl)

  log("migrating and creating the first merchant through the API")
  const first = await startGateway(env)
  const merchant = await createMerchant(first)
  await first.stop()
  log("seeding 10,000 games, 1,000 merchants and their API keys")
  const seeded = await seed(databaseUrl, { first: merchant.id, merchants: 1000, games: 10_000, operatorUrl: operator.url })

  const ready: Array<number> = []
  for (let i = 0; i < 3; i++) ready.push(await startToReady(env))
  log(`start to /ready: ${ready.map((ms) => ms.toFixed(0)).join(", ")} ms`)

  const supervised = await supervise(env, (instance) => {
    log(`the measured gateway runs as pid ${instance.pid} at ${instance.url}`)
    memory.watch("gateway", instance.pid)
  })
  const baseline = await startHelper("baseline.ts", {
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: env["DATA_ENCRYPTION_KEY"] ?? "",
    PUBLIC_BASE_URL: env["PUBLIC_BASE_URL"] ?? ""
  })
  memory.watch("baseline", baseline.pid)

  const differences = await compareServers(supervised.current().url, baseline.url, operatorScenarios(seeded))
  log(differences.length === 0 ? "the baseline answers as the gateway does" : differences.join("\n"))
  notes.push(...differences)

  log("warming up both servers: every endpoint for 3 s at 16 connections, unmeasured")
  await warmUp(operatorScenarios(seeded), supervised, baseline)
  const rows = await measureAll(operatorScenarios(seeded), supervised, baseline)
  if (selected("games page")) rows.push(...await measureFloor(supervised, seeded))
  if (selected("round")) {
    log("opening game sessions")
    const demo = await openSessions(supervised.current().url, seeded.fastKeys, quick ? 100 : 400, "demo")
    const real = await openSessions(supervised.current().url, seeded.fastKeys, quick ? 100 : 200, "real")
    rows.push(...await measureAll([
      roundScenario("round, demo", rotation(demo)),
      roundScenario("round, real (debit to the stub)", rotation(real))
    ], supervised, baseline))
  }
  const gateway = supervised.current()
  const delivery = selected("delivery")
    ? await drains(databaseUrl, env, operator.url, merchant, seeded.slowWalletMerchant, gateway)
    : undefined
  for (const { kind, count } of loggedKinds(gateway).slice(0, 5)) notes.push(`the gateway logged ${count}× ${kind}`)
  memory.final("gateway")
  memory.final("baseline")
  await Promise.all([gateway.stop(), baseline.stop(), operator.stop()])

  const cpu = cpus()[0]?.model ?? "unknown CPU"
  return {
    facts: [
      ["date", new Date().toISOString()],
      ["node", process.version],
      ["machine", `${availableParallelism()} cores (${cpu}), shared by the load generator, gateway, baseline, PostgreSQL and the operator stub`],
      ["load average (1 min)", `${loadAtStart.toFixed(2)} when the bench started (other work on the machine skews every number)`],
      ["machine probe", probe],
      ["database", database],
      ["runs", `${seconds} s each after a 1 s warm-up, at ${levels.join(", ")} connections${quick ? " (BENCH_QUICK)" : ""}; ` +
        `endpoints with a baseline: ${endpointPairs} pair${endpointPairs > 1 ? "s" : ""} of runs (gateway, then baseline) in turn, the row is the pair of the median ratio`],
      ["data", "10,000 seeded games (+ the built-in ones), 1,000 merchants with one API key each, keys rotated per request"],
      ...(only === undefined ? [] : [["parts", `only ${only.join(", ")} (BENCH_ONLY)`] as const]),
      ["delivery", delivery === undefined ? "not run" : `${messages} messages per drain (${Math.round(messages * 0.4)} with the wallet answering after 20 ms)`]
    ],
    rows,
    delivery,
    memory: { gateway: memory.peak("gateway"), baseline: memory.peak("baseline"), secondGateway: memory.peak("gateway #2") },
    ready
  }
}

/** Times the plain POSTs and the worker drain in turn: a slower or faster machine then weighs on both alike. */
const pairs = 3

/**
 * The drains (bench/README.md): with the operator answering at once, plain
 * POSTs and one gateway's worker in turn, {@link pairs} times; with its
 * wallet answering after 20 ms, plain and one gateway; then both kinds by two
 * gateways on the same database.
 */
const drains = async (
  databaseUrl: string,
  env: Record<string, string>,
  operatorUrl: string,
  merchant: CreatedMerchant,
  slowWalletMerchant: number,
  gateway: BenchGateway
): Promise<Deliveries> => {
  log("waiting for the credits of the real rounds to be delivered")
  if (!(await outboxEmpty(databaseUrl, 120_000))) notes.push("the credits of the real rounds were not all delivered in 120 s")
  // Each kind of drain is first run unmeasured with a tenth of its messages, as each endpoint's run follows a
  // warm-up: the senders' code is compiled and their connections open when the measured drain starts.
  const warmUp = Math.max(1, Math.round(messages / 10))
  const slowMessages = Math.max(1, Math.round(messages * 0.4))
  const wallet = `${operatorUrl}/wallet`
  const worker = (pids: ReadonlyArray<number>, merchantId: number, count: number, batch: string) =>
    drainWorker({ databaseUrl, operatorUrl, merchantId, messages: count, timeoutMs: drainTimeoutMs, pids }, batch)
  log(`delivery: ${messages} messages, plain POSTs and one gateway in turn, ${pairs} times`)
  await drainPlain(wallet, merchant.keys, warmUp)
  await worker([gateway.pid], merchant.id, warmUp, "one-warm-up")
  const atOnce: Array<{ readonly plain: Drain; readonly one: Drain }> = []
  for (let i = 1; i <= pairs; i++) {
    const plain = await drainPlain(wallet, merchant.keys, messages)
    const one = await worker([gateway.pid], merchant.id, messages, `one-${i}`)
    log(`plain: ${plain.perSecond.toFixed(0)}/s; one gateway: ${one.perSecond.toFixed(0)}/s`)
    atOnce.push({ plain, one })
  }
  log(`the wallet answering after 20 ms: ${slowMessages} messages, plain POSTs, then one gateway`)
  const slowPlain = await drainPlain(`${wallet}-slow`, merchant.keys, slowMessages)
  const slowOne = await worker([gateway.pid], slowWalletMerchant, slowMessages, "slow-one")
  log(`plain: ${slowPlain.perSecond.toFixed(0)}/s; one gateway: ${slowOne.perSecond.toFixed(0)}/s; starting a second gateway`)
  const second = await startGateway(env)
  memory.watch("gateway #2", second.pid)
  const both = [gateway.pid, second.pid]
  await worker(both, merchant.id, warmUp, "two-warm-up")
  const two = await worker(both, merchant.id, messages, "two")
  const slowTwo = await worker(both, slowWalletMerchant, slowMessages, "slow-two")
  log(`two gateways: ${two.perSecond.toFixed(0)}/s; the wallet answering after 20 ms: ${slowTwo.perSecond.toFixed(0)}/s`)
  memory.final("gateway #2")
  await second.stop()
  for (const { kind, count } of loggedKinds(second).slice(0, 5)) notes.push(`the second gateway logged ${count}× ${kind}`)
  return { atOnce, two, slow: { plain: slowPlain, one: slowOne, two: slowTwo } }
}

const disarm = guard(budgetSeconds * 1000)
const scope = Effect.runSync(Scope.make())
let exitCode = 0
try {
  const results = await main(scope)
  const report = `${render(results)}${notes.length > 0 ? `\n## Notes\n\n${notes.map((n) => `- ${n}`).join("\n")}\n` : ""}` +
    `\nTotal bench time: ${elapsed()}.\n`
  publish(`${quick ? "-quick" : ""}${only === undefined ? "" : "-partial"}`, report)
} catch (error) {
  console.error("bench failed:", error)
  exitCode = 1
} finally {
  memory.close()
  killAll()
  log("dropping the bench database")
  await closeOrDrop(scope, benchDatabase)
  for (const { pid, command } of killStrayChildren()) {
    console.error(`bench: killed stray child process ${pid}: ${command.slice(0, 200)}`)
    const dataDir = /-D (\S*\/gateway-pg-[A-Za-z0-9]+)\/pg\b/.exec(command)?.[1]
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  }
  disarm()
}
process.exit(exitCode)
