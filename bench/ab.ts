/**
 * Paired A/B of two gateway builds (`node bench/ab.ts <dirA> <dirB>`): each
 * directory a copy of `apps/server/dist` made inside the repository (so the
 * bundle finds node_modules), e.g. `node apps/server/build.ts && cp -r
 * apps/server/dist .ab/distB`. Both run on one fresh database and take real
 * rounds at the same time (AB_CONN connections each, default 8; AB_RUNS runs
 * of 5 s, default 4), so a machine shared with other work slows both alike:
 * the ratio of their CPU per round is what to read (bench/README.md, "The bet
 * path"). Environment: DATABASE_URL, else an embedded PostgreSQL; AB_FLAGS_A,
 * AB_FLAGS_B: Node flags for one side; AB_WALLET=slow: the wallet answering
 * after 20 ms; AB_TURNS=1: A and B in turn instead, each alone for 3 s
 * after a VACUUM, the ratio of their rounds/s (what a change that moves work
 * off the event loop shows, which the CPU per round does not). AB_LOAD=page:
 * the games page kept encoded (`limit=20&page=7`, API keys rotated) instead
 * of rounds — a request's fixed cost (access log, key check, the HTTP
 * server), read as the ratio of CPU per request. AB_LOAD=<another name>: the
 * operator scenario of bench/scenarios.ts whose name starts with it (e.g.
 * `launch, operator at once`), keys rotated over the 1,000 merchants.
 */
import { Effect, Redacted, Scope } from "effect"
import { spawn } from "node:child_process"
import pg from "pg"
import * as PgTest from "@gateway/adapters-pg/testing"
import { freePort, startLine } from "@gateway/server/testing"
import { brief, measure, type Load } from "./autocannon.ts"
import { killAll, startHelper, track } from "./children.ts"
import { createMerchant, gatewayEnv, startGateway } from "./gateways.ts"
import { closeOrDrop, seed } from "./seed.ts"
import { operatorScenarios } from "./scenarios.ts"
import { openSessions, rotation } from "./sessions.ts"

const [distA, distB] = process.argv.slice(2)
const scope = Effect.runSync(Scope.make())
const url = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
try {
  const operator = await startHelper("operator.ts", {})
  const env = gatewayEnv(url)
  const first = await startGateway(env)
  const merchant = await createMerchant(first)
  const seeded = await seed(url, { first: merchant.id, merchants: 1000, games: 100, operatorUrl: operator.url })
  // AB_WALLET=slow: the merchant whose wallet answers after 20 ms.
  const keys = process.env["AB_WALLET"] === "slow"
    ? seeded.slowKeys.filter((key) => key.merchantId === seeded.slowWalletMerchant)
    : seeded.fastKeys
  const bets = (t: ReadonlyArray<string>): Load => {
    const s = rotation(t, Number.POSITIVE_INFINITY)
    return { method: "POST", next: () => ({ path: "/api/v1.1/game-api/rounds", headers: { "content-type": "application/json", authorization: `Bearer ${s()}` }, body: "{\"stake\":\"1.00\",\"selection\":\"odd\"}" }) }
  }
  // AB_LOAD=page (or a scenario's name): both take the same operator requests (one rotation of keys); else each
  // its own 400 sessions.
  const named = process.env["AB_LOAD"] === "page" ? "games page" : process.env["AB_LOAD"]
  const requests = named === undefined ? undefined : operatorScenarios(seeded).find((s) => s.name.startsWith(named))?.load
  if (named !== undefined && requests === undefined) throw new Error(`AB_LOAD: no scenario named ${named}`)
  const la = requests ?? bets(await openSessions(first.url, keys, 400, "real"))
  const lb = requests ?? bets(await openSessions(first.url, keys, 400, "real"))
  await first.stop()
  const start = async (dist: string, extraFlags: string | undefined) => {
    const port = await freePort()
    const line = startLine()
    const child = track(spawn(process.execPath, [...line.flags, ...(extraFlags?.split(" ").filter(Boolean) ?? []), `${dist}/main.mjs`], {
      env: { ...line.env, PATH: process.env["PATH"] ?? "", PORT: String(port), HOST: "127.0.0.1", ...env }, stdio: ["ignore", "pipe", "pipe"]
    }))
    const u = `http://127.0.0.1:${port}`
    for (let i = 0; i < 300; i++) { try { if ((await fetch(`${u}/health`)).ok) break } catch {} await new Promise((r) => setTimeout(r, 100)) }
    return { url: u, pid: child.pid ?? 0 }
  }
  // AB_FLAGS_A / AB_FLAGS_B: Node flags added to one side's (e.g. a young generation of another size).
  const A = await start(distA ?? "", process.env["AB_FLAGS_A"]), B = await start(distB ?? "", process.env["AB_FLAGS_B"])
  await Promise.all([measure(A, la, 8, 3), measure(B, lb, 8, 3)])
  const ratios: Array<number> = []
  const runs = Number(process.env["AB_RUNS"] ?? 4), connections = Number(process.env["AB_CONN"] ?? 8)
  const turns = process.env["AB_TURNS"] === "1"
  if (turns) {
    // AB_TURNS=1, in turn: A alone, then B alone, each after a VACUUM (autovacuum is off here: bench/bet.ts), pairs close in time.
    const vacuum = new pg.Client({ connectionString: url })
    await vacuum.connect()
    const alone = async (target: typeof A, load: Load) => {
      await vacuum.query("VACUUM")
      return measure(target, load, connections, 3)
    }
    for (let i = 0; i < runs; i++) {
      // Which goes first alternates, so a machine speeding up or slowing down favours neither.
      const earlier = i % 2 === 0 ? await alone(A, la) : undefined
      const b = await alone(B, lb)
      const a = earlier ?? await alone(A, la)
      ratios.push(b.rps / a.rps)
      console.log(`A ${brief(a)}; B ${brief(b)}; B/A rounds/s ${(b.rps / a.rps).toFixed(3)}, p99 ${(b.p99 / a.p99).toFixed(2)}`)
    }
    await vacuum.end()
  } else for (let i = 0; i < runs; i++) {
    const [a, b] = await Promise.all([measure(A, la, connections, 5), measure(B, lb, connections, 5)])
    ratios.push(b.cpuMsPerRequest / a.cpuMsPerRequest)
    console.log(`A ${a.rps.toFixed(0)}/s p50 ${a.p50.toFixed(1)} ms ${a.cpuMsPerRequest.toFixed(3)} ms  B ${b.rps.toFixed(0)}/s p50 ${b.p50.toFixed(1)} ms ${b.cpuMsPerRequest.toFixed(3)} ms  B/A ${(b.cpuMsPerRequest / a.cpuMsPerRequest).toFixed(3)} non2xx ${a.non2xx}/${b.non2xx}`)
  }
  console.log(turns ? "median B/A rounds/s" : "median B/A CPU per request", ratios.sort((x, y) => x - y)[Math.floor(ratios.length / 2)]?.toFixed(3))
} finally {
  killAll()
  await closeOrDrop(scope, url)
}
process.exit(0)
