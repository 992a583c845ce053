/**
 * `node bench/exportDelay.ts` — what one CSV export costs the gateway's event loop, robust on a busy machine: a
 * gateway (the bundle, as `npm start` runs it, bench/eventLoopDelay.ts preloaded) on a throw-away database, one
 * merchant with EXPORT_ROUNDS (50,000) seeded rounds, then EXPORT_RUNS (2) times the month's rounds CSV and its
 * summary by player as CSV, one at a time, each with the gateway's event-loop delay (max, p99, p99.9) and CPU time
 * while it ran. `REPORTS_*` in the environment are passed to the gateway (REPORTS_EXPORT_PAUSE_MS=0: unpaced);
 * EXPORT_GATEWAY_OUTPUT=true prints what the gateway wrote (with GATEWAY_NODE_OPTIONS=--trace-gc, its collections).
 */
import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import pg from "pg"
import { spawnGateway } from "@gateway/server/testing"
import { seedRounds } from "@gateway/server/testing/Seed"

const rounds = Number(process.env["EXPORT_ROUNDS"] ?? 50_000)
process.env["GATEWAY_NODE_OPTIONS"] = `${process.env["GATEWAY_NODE_OPTIONS"] ?? ""} --import ${join(import.meta.dirname, "eventLoopDelay.ts")}`
const scope = Effect.runSync(Scope.make())
const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
const gw = await spawnGateway({
  DATABASE_URL: databaseUrl, DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"), RATE_LIMIT_RPS: "0", LOG_LEVEL: "Warn",
  ...Object.fromEntries(Object.entries(process.env).flatMap(([n, v]) => v !== undefined && n.startsWith("REPORTS_") ? [[n, v]] : []))
})
try {
  const admin = { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
  const api = `${gw.url}/api/v1.1/operator-api`
  const created = await call(`${api}/create`, { method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "P", email: "p@x.example", providerId: 1 } })
  const key = String((await call(`${api}/merchants/${created.body.id}/api-keys`, { method: "POST", headers: admin })).body.apiKey)
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  const to = new Date()
  const from = new Date(to.getTime() - 30 * 86_400_000)
  await seedRounds(db, { merchantId: Number(created.body.id), rounds, players: Math.round(rounds * 0.4), idLength: 127, before: to })
  await db.end()
  const range = `from=${from.toISOString()}&to=${to.toISOString()}`
  const eld = async () => {
    const before = gw.output().length
    gw.process.kill("SIGUSR2")
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 20))
      const line = /event-loop-delay (\{.*\})/.exec(gw.output().slice(before))?.[1]
      if (line !== undefined) return JSON.parse(line)
    }
    return {}
  }
  const exportOnce = async (url: string) => {
    await eld()
    const started = performance.now()
    const answer = await fetch(url, { headers: { "sv-api-key": key, accept: "text/csv" } })
    let bytes = 0
    const reader = answer.body?.getReader()
    if (reader !== undefined) {
      for (;;) {
        const read = await reader.read()
        if (read.done) break
        bytes += read.value.length
      }
    }
    const took = performance.now() - started
    return { status: answer.status, bytes, ms: Math.round(took), eld: await eld() }
  }
  for (let i = 0; i < Number(process.env["EXPORT_RUNS"] ?? 2); i++) {
    console.log("rounds csv", JSON.stringify(await exportOnce(`${api}/rounds?${range}`)))
    console.log("summary csv", JSON.stringify(await exportOnce(`${api}/reports/summary?${range}&groupBy=player`)))
  }
  await new Promise((r) => setTimeout(r, 1000))
  console.log("idle", JSON.stringify(await eld()))
  if (process.env["EXPORT_GATEWAY_OUTPUT"] === "true") console.log(gw.output())
} finally {
  await gw.stop("SIGTERM")
  await Effect.runPromise(Scope.close(scope, Exit.void)).catch(() => {})
  process.exit()
}
