/**
 * Two builds of the server started in turn: `node bench/starts.ts <distA>
 * <distB> [runs]` (copies of `apps/server/dist`, e.g. `cp -r
 * apps/server/dist .ab/a` before a change and `.ab/b` after it). Each
 * build is started once first to make its code cache (src/boot.ts), then
 * `runs` times (default 10) alternately, on one migrated database, as
 * `npm start` runs it (ready.ts): milliseconds from spawn until `/ready`
 * answers, then, 300 ms later, the process's CPU time and RSS. Prints the
 * median and range of each.
 */
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { join, resolve } from "node:path"
import { cpuMs, statusKb } from "./proc.ts"
import { startUntilReady } from "./ready.ts"

const [distA, distB, runs = "10"] = process.argv.slice(2)
if (distA === undefined || distB === undefined) {
  console.error("usage: node bench/starts.ts <distA> <distB> [runs]")
  process.exit(2)
}
const scope = Effect.runSync(Scope.make())
const env = {
  DATABASE_URL: Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl))),
  DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  AUTH_JWT_SECRET: randomBytes(32).toString("base64url"),
  SHUTDOWN_DRAIN_SECONDS: "0"
}

interface Start {
  readonly readyMs: number
  readonly cpuMs: number
  readonly rssMb: number
}

const start = async (dist: string, holdMs: number): Promise<Start> => {
  let cpu = Number.NaN
  let rssMb = Number.NaN
  const readyMs = await startUntilReady(env, {
    main: join(resolve(dist), "main.mjs"),
    atReady: async (child) => {
      await new Promise((r) => setTimeout(r, holdMs))
      const pid = child.pid ?? 0
      cpu = cpuMs(pid)
      rssMb = statusKb(pid, "VmRSS") / 1024
    }
  })
  return { readyMs, cpuMs: cpu, rssMb }
}

// The first start of each migrates the database (A) and writes its code cache after two seconds.
await start(distA, 2_600)
await start(distB, 2_600)
const results: Record<string, Array<Start>> = { [distA]: [], [distB]: [] }
for (let i = 0; i < Number(runs); i++) {
  for (const dist of i % 2 === 0 ? [distA, distB] : [distB, distA]) results[dist]?.push(await start(dist, 300))
}
const summary = (values: ReadonlyArray<number>, digits: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (i: number) => (sorted[i] ?? Number.NaN).toFixed(digits)
  return `${at(sorted.length >> 1)} (${at(0)}–${at(sorted.length - 1)})`
}
for (const [dist, rows] of Object.entries(results)) {
  console.log(
    `${dist}: to /ready ${summary(rows.map((r) => r.readyMs), 0)} ms, CPU ${summary(rows.map((r) => r.cpuMs), 0)} ms, ` +
      `RSS ${summary(rows.map((r) => r.rssMb), 1)} MB (median (range) of ${rows.length})`
  )
}
await Effect.runPromise(Scope.close(scope, Exit.void))
process.exit(0)
