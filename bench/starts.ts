/**
 * Two builds of the server started in turn: `node bench/starts.ts <distA>
 * <distB> [runs]` (copies of `apps/server/dist`, e.g. `cp -r
 * apps/server/dist .ab/a` before a change and `.ab/b` after it). Each
 * build is started once first to make its code cache (src/boot.ts), then
 * `runs` times (default 10) alternately, on one migrated database, with
 * the flags and environment of `npm start`: milliseconds from spawn until
 * `/ready` answers (polled every 10 ms), then, 300 ms later, the process's
 * CPU time and RSS. Prints the median and range of each.
 */
import * as PgTest from "@gateway/adapters-pg/testing"
import { freePort, startLine } from "@gateway/server/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"

const [distA, distB, runs = "10"] = process.argv.slice(2)
if (distA === undefined || distB === undefined) {
  console.error("usage: node bench/starts.ts <distA> <distB> [runs]")
  process.exit(2)
}
const scope = Effect.runSync(Scope.make())
const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
const env = {
  DATABASE_URL: databaseUrl,
  DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  AUTH_JWT_SECRET: randomBytes(32).toString("base64url"),
  HOST: "127.0.0.1",
  SHUTDOWN_DRAIN_SECONDS: "0"
}
const line = startLine()

interface Start {
  readonly readyMs: number
  readonly cpuMs: number
  readonly rssMb: number
}

const start = async (dist: string, holdMs: number): Promise<Start> => {
  const port = await freePort()
  const began = performance.now()
  const child = spawn(process.execPath, [...line.flags, join(resolve(dist), "main.mjs")], {
    env: { ...line.env, PATH: process.env["PATH"] ?? "", ...env, PORT: String(port) },
    stdio: "ignore"
  })
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${dist} exited with ${child.exitCode}`)
    const ok = await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.ok, () => false)
    if (ok) break
    await new Promise((r) => setTimeout(r, 10))
  }
  const readyMs = performance.now() - began
  await new Promise((r) => setTimeout(r, holdMs))
  const rssMb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1]) / 1024
  const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
  const cpuMs = (Number(stat[11]) + Number(stat[12])) * 10
  await new Promise((r) => {
    child.once("exit", r)
    child.kill("SIGTERM")
  })
  return { readyMs, cpuMs, rssMb }
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
