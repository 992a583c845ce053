/**
 * `npm run bench:bet`: the bet path. `POST /api/v1.1/game-api/rounds` of
 * odd-even in real mode on the gateway against the plain implementation of
 * the same work (baseline-bet.ts), same run, same database, same wallet stub
 * (answering at once, then after 20 ms), at 1/16/64 connections over 512
 * sessions a server (256 with the slow wallet); then what a round costs the
 * database (bet-db.ts), two gateways against one with the slow wallet, and
 * last the check that every answered bet was debited once and credited once.
 * See bench/README.md, "The bet path". Environment: DATABASE_URL (else an
 * embedded PostgreSQL), BENCH_SECONDS (3), BENCH_QUICK=1, BENCH_CONNECTIONS,
 * BENCH_WARMUP_SECONDS, GATEWAY_NODE_OPTIONS.
 */
import { Effect, Redacted, Scope } from "effect"
import pg from "pg"
import { availableParallelism, cpus, loadavg } from "node:os"
import * as PgTest from "@gateway/adapters-pg/testing"
import { brief, fire, measure, type Load, type Run, type Target } from "./autocannon.ts"
import { dbCost, settledOnce, type SettledCheck } from "./bet-db.ts"
import { percent, renderBet, type BetRow, type TwoRow } from "./bet-report.ts"
import { guard, killAll, startHelper } from "./children.ts"
import { createMerchant, gatewayEnv, loggedKinds, startGateway, supervise } from "./gateways.ts"
import { cpuMs, memoryWatch } from "./proc.ts"
import { describe as describeProbe, wakeupCost } from "./wakeup.ts"
import { startToReady } from "./ready.ts"
import { publish } from "./report.ts"
import { closeOrDrop, seed, type SeededKey, serverVersion } from "./seed.ts"
import { openSessions, rotation } from "./sessions.ts"

const quick = process.env["BENCH_QUICK"] === "1"
const seconds = Number(process.env["BENCH_SECONDS"] ?? (quick ? 2 : 3))
const levels = process.env["BENCH_CONNECTIONS"]?.split(",").map(Number).filter((n) => Number.isInteger(n) && n > 0) ??
  (quick ? [16] : [1, 16, 64])
const pairs = quick ? 1 : 3
/** BENCH_ONLY=gateway: the gateway's rounds with the wallet at once only (for profiling and A/B of its CPU per round). */
const gatewayOnly = process.env["BENCH_ONLY"] === "gateway"
/** BENCH_ONLY=breakdown: a round's CPU on each side (server, stub, database, load generator), both servers in turn. */
const breakdown = process.env["BENCH_ONLY"] === "breakdown"
/** BENCH_ONLY=two: two gateways against one with the wallet after 20 ms only. */
const twoOnly = process.env["BENCH_ONLY"] === "two"
/**
 * The connections a gateway of the two-instance runs: low rates, where one gateway leaves the most of the machine
 * idle for a second (4, 8), up to where one gateway already keeps the cores nearly full (16, 64); each run reads how
 * busy the whole machine was. BENCH_TWO_CONNECTIONS overrides.
 */
const twoLevels = process.env["BENCH_TWO_CONNECTIONS"]?.split(",").map(Number).filter((n) => Number.isInteger(n) && n > 0) ??
  (quick ? [4, 16] : [4, 8, 16, 64])
const sessionsPerServer = 512
/**
 * Seconds of unmeasured rounds at 16 connections every server takes before its first measured run (BENCH_WARMUP_SECONDS,
 * 30; 5 quick), in windows of {@link warmupWindow} s (each after a VACUUM, as the measured runs), the wallet at once,
 * then 2 s with the wallet after 20 ms. A gateway's first seconds of rounds cost it twice what the later ones do
 * while its JIT compiles (2.06 ms a round in the first window, ~1.0 from the third; the compiler's threads 7 % of its
 * CPU in the first 20 s, 1 % after a minute: bench/README.md, "The sixteenth pass"). A server runs for days; the
 * bench compares the steady state of each, both warmed alike, and the report lists each one's windows.
 */
const warmupSeconds = Number(process.env["BENCH_WARMUP_SECONDS"] ?? (quick ? 5 : 30))
const warmupWindow = 5
const began = performance.now()
const loadAtStart = loadavg()[0] ?? 0
const log = (line: string) => console.log(`[${((performance.now() - began) / 1000).toFixed(0)} s] ${line}`)
const notes: Array<string> = []
const memory = memoryWatch()

/** The round ids each server answered 2xx, for the check at the end. */
const answered = { gateway: new Set<string>(), plain: new Set<string>() }
const roundIdOf = /"roundId":"([^"]+)"/

/** A real round of odd-even (by autoplay with `autoplay`) for the next session of `tokens`, its answered round id kept. */
const bets = (tokens: ReadonlyArray<string>, who: keyof typeof answered, autoplay = false): Load => {
  const session = rotation(tokens, Number.POSITIVE_INFINITY)
  return {
    method: "POST",
    next: () => ({
      path: "/api/v1.1/game-api/rounds",
      headers: { "content-type": "application/json", authorization: `Bearer ${session()}` },
      body: autoplay ? "{\"stake\":\"1.00\",\"selection\":\"odd\",\"autoplay\":true}" : "{\"stake\":\"1.00\",\"selection\":\"odd\"}"
    }),
    answered: (status, body) => {
      const id = status >= 200 && status < 300 ? roundIdOf.exec(body)?.[1] : undefined
      if (id !== undefined) answered[who].add(id)
    }
  }
}

const main = async (scope: Scope.Scope) => {
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
  log("migrating, creating the first merchant, seeding 1,000 merchants")
  const first = await startGateway(env)
  const merchant = await createMerchant(first)
  await first.stop()
  const seeded = await seed(databaseUrl, { first: merchant.id, merchants: 1000, games: 1000, operatorUrl: operator.url })
  const ready = await startToReady(env)
  // Sessions are opened through a gateway of their own: the measured one starts after, its profile (with
  // GATEWAY_NODE_OPTIONS=--cpu-prof) and its memory are of rounds only.
  log("opening real sessions through launch URLs")
  const opener = await startGateway(env)
  const slowKey = seeded.slowKeys.filter((key) => key.merchantId === seeded.slowWalletMerchant)
  const open = (keys: ReadonlyArray<SeededKey>, count: number) => openSessions(opener.url, keys, count, "real")
  const sessions = {
    gateway: { fast: await open(seeded.fastKeys, sessionsPerServer), slow: await open(slowKey, sessionsPerServer / 2) },
    plain: { fast: await open(seeded.fastKeys, sessionsPerServer), slow: await open(slowKey, sessionsPerServer / 2) }
  }
  await opener.stop()
  const supervised = await supervise(env, (instance) => memory.watch("gateway", instance.pid))
  const gateway = supervised.current()
  const baseline = await startHelper("baseline.ts", {
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: env["DATA_ENCRYPTION_KEY"] ?? "",
    PUBLIC_BASE_URL: env["PUBLIC_BASE_URL"] ?? ""
  })
  memory.watch("baseline", baseline.pid)
  const loads = {
    gateway: { fast: bets(sessions.gateway.fast, "gateway"), slow: bets(sessions.gateway.slow, "gateway") },
    plain: { fast: bets(sessions.plain.fast, "plain"), slow: bets(sessions.plain.slow, "plain") }
  }
  const targets: Record<keyof typeof answered, Target> = { gateway, plain: baseline }
  /** Each server's CPU ms a round in the windows of its warm-up. */
  const warmups: { gateway?: Array<number>; plain?: Array<number>; second?: Array<number> } = {}
  /**
   * This machine's PostgreSQL runs with autovacuum off (the gateway warns at start). Without it, the dead row
   * versions of every round pile up in both servers' tables and indexes, and the gateway's rounds (more indexes:
   * reports read them) slowed run after run — 400 → 175 rounds/s in 50 s at 16 connections, against ~600
   * steady with a VACUUM every few seconds. As autovacuum would in production, the whole database is vacuumed
   * before each measured run, both servers' tables alike (BENCH_VACUUM=false: not).
   */
  const vacuumClient = new pg.Client({ connectionString: databaseUrl })
  await vacuumClient.connect()
  const vacuum = async () => {
    if (process.env["BENCH_VACUUM"] !== "false") await vacuumClient.query("VACUUM")
  }
  /** Runs `target` to its steady state ({@link warmupSeconds}); its CPU ms a round in each window. */
  const warmUp = async (name: string, target: Target, fast: Load, slow: Load): Promise<Array<number>> => {
    const curve: Array<number> = []
    for (let i = 0; i < Math.max(1, Math.round(warmupSeconds / warmupWindow)); i++) {
      await vacuum()
      curve.push((await measure(target, fast, 16, warmupWindow - 1)).cpuMsPerRequest)
    }
    await measure(target, slow, 16, 1)
    log(`${name} warmed up: CPU ms a round in ${warmupWindow} s windows at 16 connections ${curve.map((ms) => ms.toFixed(2)).join(", ")}`)
    return curve
  }

  /** What an autoplay round (CONTRACT §12) costs the database: every fast session's autoplay started, 3,000 of its bets. */
  const autoplayDbCost = async () => {
    for (const token of sessions.gateway.fast) {
      const started = await fetch(`${gateway.url}/api/v1.1/game-api/autoplay`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ rounds: 1000, lossLimit: "100000.00" })
      })
      if (!started.ok) throw new Error(`autoplay not started: ${started.status} ${await started.text()}`)
    }
    await vacuum()
    return dbCost(databaseUrl, () => fire(gateway, bets(sessions.gateway.fast, "gateway", true), 16, 0, 3000), 3000, gateway.pid)
  }

  /**
   * Two gateways on one database against one, the wallet answering after 20 ms, at `twoLevels` connections a
   * gateway, each gateway its half of the sessions; the machine's busy share is read over each run.
   */
  const twoInstances = async () => {
    log("two gateways on one database, the wallet answering after 20 ms")
    const second = await startGateway(env)
    memory.watch("gateway #2", second.pid)
    const halves = [sessions.gateway.slow.filter((_, i) => i % 2 === 0), sessions.gateway.slow.filter((_, i) => i % 2 === 1)]
    // The second gateway warmed as the first was, on the first's sessions (its own are the slow wallet's).
    warmups.second = await warmUp("gateway #2", second, loads.gateway.fast, bets(halves[1] ?? [], "gateway"))
    const two: Array<TwoRow> = []
    for (const connections of twoLevels) {
      const loadsOfTwo = halves.map((half) => bets(half, "gateway"))
      await measure(second, loadsOfTwo[1] ?? loads.gateway.slow, connections, 1)
      await vacuum()
      const one = await measure(gateway, loads.gateway.slow, connections, seconds)
      await vacuum()
      const both = await Promise.all([
        measure(gateway, loadsOfTwo[0] ?? loads.gateway.slow, connections, seconds),
        measure(second, loadsOfTwo[1] ?? loads.gateway.slow, connections, seconds)
      ])
      log(`@${connections} each: one ${brief(one)}, machine ${percent(one.machineBusy)} busy; two ${both.map(brief).join(" + ")}, machine ${percent(both[0]?.machineBusy ?? Number.NaN)} busy`)
      two.push({ connections, one, two: both })
    }
    memory.final("gateway #2")
    await second.stop()
    return two
  }

  if (twoOnly) {
    warmups.gateway = await warmUp("gateway", gateway, loads.gateway.fast, loads.gateway.slow)
    await twoInstances()
    await supervised.current().stop()
    await vacuumClient.end()
    return "two instances only\n"
  }
  if (breakdown) {
    // Where a round's CPU goes, machine-wide: the server, the wallet stub, the database's backends, the load
    // generator (this process), per round answered; the two servers in turn.
    const backends = async () => {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      const { rows } = await client.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
      )
      await client.end()
      return rows.map((row) => row.pid)
    }
    for (const who of ["gateway", "plain"] as const) await measure(targets[who], loads[who].fast, 16, 2)
    const idle = { gateway: cpuMs(gateway.pid), plain: cpuMs(baseline.pid) }
    await new Promise((resolve) => setTimeout(resolve, 5000))
    log(`idle for 5 s: gateway ${((cpuMs(gateway.pid) - idle.gateway) / 5).toFixed(1)} ms/s, plain ${((cpuMs(baseline.pid) - idle.plain) / 5).toFixed(1)} ms/s`)
    for (let i = 0; i < pairs; i++) {
      for (const who of ["gateway", "plain"] as const) {
        await vacuum()
        await fire(targets[who], loads[who].fast, 16, 1)
        // Every process's CPU read around the same measured seconds (no warm-up inside), per round answered in them.
        const pids = await backends()
        const database = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0)
        const before = { server: cpuMs(targets[who].pid), db: database(), stub: cpuMs(operator.pid), me: process.cpuUsage() }
        const { result } = await fire(targets[who], loads[who].fast, 16, seconds)
        const used = process.cpuUsage(before.me)
        const per = (ms: number) => (ms / result.requests.total).toFixed(3)
        log(`${who} @16: ${(result.requests.total / seconds).toFixed(0)}/s; per round: server ${per(cpuMs(targets[who].pid) - before.server)} ms, database ${per(database() - before.db)} ms (${pids.length} backends), stub ${per(cpuMs(operator.pid) - before.stub)} ms, load generator ${per((used.user + used.system) / 1000)} ms`)
      }
    }
    await supervised.current().stop()
    await baseline.stop()
    await vacuumClient.end()
    return "breakdown only\n"
  }
  if (gatewayOnly) {
    // BENCH_WALLET=slow: the rounds of the merchant whose wallet answers after 20 ms.
    const load = process.env["BENCH_WALLET"] === "slow" ? loads.gateway.slow : loads.gateway.fast
    await warmUp("gateway", gateway, loads.gateway.fast, loads.gateway.slow)
    for (let i = 0; i < pairs + 2; i++) {
      for (const connections of levels) {
        await vacuum()
        log(`gateway @${connections}: ${brief(await measure(gateway, load, connections, seconds))}`)
      }
    }
    const cost = await dbCost(databaseUrl, () => fire(gateway, loads.gateway.fast, 16, 0, 2000), 2000, gateway.pid)
    log(`database per round: ${JSON.stringify(cost)}`)
    log(`database per autoplay round: ${JSON.stringify(await autoplayDbCost())}`)
    await supervised.current().stop()
    await vacuumClient.end()
    return "gateway only\n"
  }
  for (const who of ["gateway", "plain"] as const) warmups[who] = await warmUp(who, targets[who], loads[who].fast, loads[who].slow)

  const rows: Array<BetRow> = []
  for (const wallet of ["fast", "slow"] as const) {
    for (const connections of levels) {
      const runs: Array<{ gateway: Run; plain: Run }> = []
      for (let i = 1; i <= pairs; i++) {
        await vacuum()
        const onGateway = await measure(gateway, loads.gateway[wallet], connections, seconds)
        await vacuum()
        const onPlain = await measure(baseline, loads.plain[wallet], connections, seconds)
        log(`wallet ${wallet} @${connections} (pair ${i}) gateway: ${brief(onGateway)}; plain: ${brief(onPlain)}`)
        runs.push({ gateway: onGateway, plain: onPlain })
      }
      rows.push({ wallet, connections, pairs: runs })
    }
  }

  log("what a round costs the database: 3,000 rounds at 16 connections, each server alone")
  await vacuum()
  const gatewayCost = await dbCost(databaseUrl, () => fire(gateway, loads.gateway.fast, 16, 0, 3000), 3000, gateway.pid)
  await vacuum()
  const plainCost = await dbCost(databaseUrl, () => fire(baseline, loads.plain.fast, 16, 0, 3000), 3000, baseline.pid)
  log("what an autoplay round costs the database: 3,000 autoplay rounds at 16 connections")
  const autoplayCost = await autoplayDbCost()
  const cost = { gateway: gatewayCost, plain: plainCost, autoplay: autoplayCost }

  const two = await twoInstances()

  await vacuumClient.end()
  log("checking that every answered bet was debited once and credited once")
  const check: Record<keyof typeof answered, SettledCheck> = {
    gateway: await settledOnce(databaseUrl, operator.url, "gateway", answered.gateway),
    plain: await settledOnce(databaseUrl, operator.url, "plain", answered.plain)
  }
  for (const { kind, count } of loggedKinds(supervised.current()).slice(0, 5)) notes.push(`the gateway logged ${count}× ${kind}`)
  memory.final("gateway")
  memory.final("baseline")
  await Promise.all([supervised.current().stop(), baseline.stop(), operator.stop()])
  return renderBet({
    facts: [
      ["date", new Date().toISOString()],
      ["node", process.version],
      ["machine", `${availableParallelism()} cores (${cpus()[0]?.model ?? "?"}), shared by the load generator, both servers, PostgreSQL and the stub`],
      ["load average (1 min)", `${loadAtStart.toFixed(2)} when the bench started`],
      ["machine probe", probe],
      ["database", database],
      ["warm-up", `${warmupSeconds} s of rounds at 16 connections for each server before its first measured run; its CPU ms a round in ${warmupWindow} s windows: ${
        Object.entries(warmups).map(([who, curve]) => `${who === "second" ? "second gateway" : who} ${curve.map((ms) => ms.toFixed(2)).join(", ")}`).join("; ")
      }`],
      ["runs", `${seconds} s each after a 1 s warm-up, at ${levels.join(", ")} connections; ${pairs} pair(s) (gateway, then plain) in turn, the row is the pair of the median ratio`],
      ["vacuum", process.env["BENCH_VACUUM"] === "false"
        ? "none (BENCH_VACUUM=false): dead row versions pile up through the whole bench"
        : "the whole database before each measured run (this PostgreSQL has autovacuum off; production's would not)"],
      ["sessions", `${sessionsPerServer} real sessions a server with the wallet at once, ${sessionsPerServer / 2} with the wallet after 20 ms, rotated per request`],
      ["gateway start to /ready", `${ready.toFixed(0)} ms`]
    ],
    rows,
    cost,
    two,
    check,
    memory: { gateway: memory.peak("gateway"), plain: memory.peak("baseline"), second: memory.peak("gateway #2") },
    notes
  })
}

let benchDatabase: string | undefined
const disarm = guard(Number(process.env["BENCH_TIMEOUT_SECONDS"] ?? 900) * 1000)
const scope = Effect.runSync(Scope.make())
let exitCode = 0
try {
  const report = await main(scope)
  // The partial modes (BENCH_ONLY) print their lines only: the day's full report stays as it is.
  if (gatewayOnly || breakdown || twoOnly) console.log(report)
  else publish(`-bet${quick ? "-quick" : ""}`, `${report}\nTotal bench time: ${((performance.now() - began) / 1000).toFixed(0)} s.\n`)
} catch (error) {
  console.error("bench failed:", error)
  exitCode = 1
} finally {
  memory.close()
  killAll()
  await closeOrDrop(scope, benchDatabase)
  disarm()
}
process.exit(exitCode)
