/**
 * `npm run soak`: the gateway under a mixed load for SOAK_MINUTES (30) on the
 * seeded data of the bench — games pages, searches, real launches (the
 * operator stub in its own process), demo and real rounds on freshly opened
 * sessions, 16 connections — in cycles of about a minute. The server's RSS
 * is sampled every 10 s; the report compares the RSS after the warm-up
 * (SOAK_WARMUP_MINUTES, 3) with the rest of the run, counts every non-2xx
 * answer and connection error, and checks that the outbox drains at the end.
 * Written to bench/results/<date>-soak.md. Environment as `npm run bench`
 * (DATABASE_URL, else an embedded PostgreSQL).
 */
import { Effect, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { measure, type Run } from "./autocannon.ts"
import { guard, killAll, startHelper } from "./children.ts"
import { outboxEmpty } from "./drain.ts"
import { createMerchant, gatewayEnv, loggedKinds, startGateway } from "./gateways.ts"
import { statusKb } from "./proc.ts"
import { publish } from "./report.ts"
import { operatorScenarios, roundScenario, type Scenario } from "./scenarios.ts"
import { closeOrDrop, seed } from "./seed.ts"
import { openSessions, rotation } from "./sessions.ts"

const minutes = Number(process.env["SOAK_MINUTES"] ?? 30)
const warmupMinutes = Number(process.env["SOAK_WARMUP_MINUTES"] ?? Math.min(3, minutes / 3))
const connections = 16
const began = performance.now()
const elapsedMinutes = () => (performance.now() - began) / 60_000
const log = (line: string) => console.log(`[${elapsedMinutes().toFixed(1)} min] ${line}`)

interface Sample {
  readonly minute: number
  readonly rssMb: number
}

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const main = async (scope: Scope.Scope) => {
  const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
  const operator = await startHelper("operator.ts", {})
  const env = gatewayEnv(databaseUrl)
  const first = await startGateway(env)
  const merchant = await createMerchant(first)
  await first.stop()
  const seeded = await seed(databaseUrl, { first: merchant.id, merchants: 1000, games: 10_000, operatorUrl: operator.url })
  const gateway = await startGateway(env)
  log(`gateway pid ${gateway.pid}; soaking for ${minutes} min (warm-up ${warmupMinutes} min)`)

  const samples: Array<Sample> = []
  const sampler = setInterval(() => samples.push({ minute: elapsedMinutes(), rssMb: statusKb(gateway.pid, "VmRSS") / 1024 }), 10_000)
  const [page, , search, launch] = operatorScenarios(seeded)
  const runs: Array<{ readonly name: string; readonly run: Run }> = []
  const drive = async (scenario: Scenario | undefined, seconds: number) => {
    if (scenario === undefined) return
    const run = await measure({ url: gateway.url, pid: gateway.pid }, scenario.load, connections, seconds)
    runs.push({ name: scenario.name, run })
  }
  let cycles = 0
  while (elapsedMinutes() < minutes) {
    const demo = await openSessions(gateway.url, seeded.fastKeys, 40, "demo")
    const real = await openSessions(gateway.url, seeded.fastKeys, 20, "real")
    await drive(page, 8)
    await drive(search, 6)
    await drive(launch, 8)
    await drive(roundScenario("round, demo", rotation(demo, 400)), 8)
    await drive(roundScenario("round, real", rotation(real, 400)), 8)
    cycles++
    const last = samples[samples.length - 1]
    log(`cycle ${cycles}: RSS ${last?.rssMb.toFixed(1) ?? "?"} MB, ` +
      `non-2xx so far ${runs.reduce((n, r) => n + r.run.non2xx + r.run.errors, 0)}`)
  }
  clearInterval(sampler)
  const drained = await outboxEmpty(databaseUrl, 120_000)
  const kinds = loggedKinds(gateway).slice(0, 8)
  await Promise.all([gateway.stop(), operator.stop()])

  const warm = samples.filter((s) => s.minute >= warmupMinutes)
  const firstMinute = warm.filter((s) => s.minute < warmupMinutes + 1).map((s) => s.rssMb)
  const lastMinute = warm.filter((s) => s.minute >= minutes - 1).map((s) => s.rssMb)
  const statuses: Record<string, number> = {}
  for (const { run } of runs) {
    for (const [status, count] of Object.entries(run.statuses)) {
      if (!status.startsWith("2")) statuses[status] = (statuses[status] ?? 0) + count
    }
  }
  const requests = runs.reduce((n, r) => n + r.run.requests, 0)
  const failures = runs.reduce((n, r) => n + r.run.non2xx + r.run.errors, 0)
  const report = [
    "# Operator Gateway soak",
    "",
    `- date: ${new Date().toISOString()}, node ${process.version}`,
    `- ${minutes} min of mixed load at ${connections} connections in ${cycles} cycles (games page 8 s, search 6 s, ` +
    "real launch 8 s, demo rounds 8 s, real rounds 8 s, after opening 40 demo and 20 real sessions)",
    `- requests answered: ${requests}; non-2xx or connection errors: **${failures}** ${JSON.stringify(statuses)}`,
    `- RSS after the ${warmupMinutes}-minute warm-up (median of the next minute): ${median(firstMinute).toFixed(1)} MB; ` +
    `last minute: ${median(lastMinute).toFixed(1)} MB; highest after warm-up: ${Math.max(...warm.map((s) => s.rssMb)).toFixed(1)} MB`,
    `- outbox drained at the end: ${drained ? "yes" : "**no**"}`,
    `- log lines above Info by kind: ${kinds.length === 0 ? "none" : kinds.map(({ kind, count }) => `${count}× ${kind}`).join("; ")}`,
    "",
    "RSS every 10 s (minute: MB):",
    "",
    samples.map((s) => `${s.minute.toFixed(1)}: ${s.rssMb.toFixed(0)}`).join(", "),
    ""
  ].join("\n")
  publish("-soak", report)
  return databaseUrl
}

const disarm = guard((minutes + 10) * 60_000)
const scope = Effect.runSync(Scope.make())
let exitCode = 0
let database: string | undefined
try {
  database = await main(scope)
} catch (error) {
  console.error("soak failed:", error)
  exitCode = 1
} finally {
  killAll()
  await closeOrDrop(scope, database)
  disarm()
}
process.exit(exitCode)
