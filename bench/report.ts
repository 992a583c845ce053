/**
 * The bench's report: the machine, the endpoint table, the delivery table,
 * memory and start-up, then whether each target holds.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Run } from "./autocannon.ts"
import type { Drain } from "./drain.ts"
import type { MemoryPeak } from "./proc.ts"

/** One run on the gateway and, right after it, one on the baseline (when the endpoint has one). */
export interface Pair {
  readonly gateway: Run
  readonly baseline?: Run | undefined
}

/** One endpoint at one connection count, on both servers: the pair of the median ratio, and every pair run. */
export interface Row extends Pair {
  readonly endpoint: string
  readonly connections: number
  readonly pairs: ReadonlyArray<Pair>
}

/** The delivery drains (bench/README.md). */
export interface Deliveries {
  /** The operator answering at once: plain POSTs, then one gateway's worker, in turn. */
  readonly atOnce: ReadonlyArray<{ readonly plain: Drain; readonly one: Drain }>
  /** Two gateways' workers on one database, the operator answering at once. */
  readonly two: Drain
  /** The wallet answering after 20 ms: plain POSTs, one gateway, two. */
  readonly slow: { readonly plain: Drain; readonly one: Drain; readonly two: Drain }
}

/** Everything one bench run measured. */
export interface Results {
  readonly facts: ReadonlyArray<readonly [string, string]>
  readonly rows: ReadonlyArray<Row>
  /** Absent when BENCH_ONLY left the drains out. */
  readonly delivery?: Deliveries | undefined
  readonly memory: { readonly gateway: MemoryPeak; readonly baseline: MemoryPeak; readonly secondGateway: MemoryPeak }
  /** Start to /ready of each attempt, ms. */
  readonly ready: ReadonlyArray<number>
}

const fixed = (n: number, digits: number) => Number.isFinite(n) ? n.toFixed(digits) : "—"
const latency = (run: Run | undefined) => run === undefined ? "—" : `${fixed(run.p50, 2)} / ${fixed(run.p99, 2)}`
const ratio = (pair: Pair) => pair.baseline === undefined ? Number.NaN : pair.gateway.rps / pair.baseline.rps
const failures = (run: Run | undefined) => run === undefined ? "—" : `${run.non2xx}${run.errors > 0 ? ` (+${run.errors} err)` : ""}`

/** The median of some numbers. */
export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? sorted[mid] ?? Number.NaN : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

/** The row of some pairs of runs: the pair whose ratio is the median (the lower middle of an even count). */
export const medianPair = (endpoint: string, connections: number, pairs: ReadonlyArray<Pair>): Row => {
  const sorted = [...pairs].sort((a, b) => ratio(a) - ratio(b))
  const middle = sorted[Math.floor((sorted.length - 1) / 2)]
  if (middle === undefined) throw new Error(`${endpoint} @${connections}: no run`)
  return { endpoint, connections, ...middle, pairs }
}

const endpointTable = (rows: ReadonlyArray<Row>): Array<string> => [
  "| endpoint | conns | gateway req/s | baseline req/s | ratio | gateway p50 / p99 ms | baseline p50 / p99 ms | non-2xx gateway / baseline | gateway CPU ms/req | baseline CPU ms/req | machine CPU ms/req, gateway / baseline |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map((row) =>
    `| ${row.endpoint} | ${row.connections} | ${fixed(row.gateway.rps, 0)} | ${fixed(row.baseline?.rps ?? Number.NaN, 0)} | ` +
    `${Number.isFinite(ratio(row)) ? `${fixed(ratio(row), 2)}×` : "—"} | ${latency(row.gateway)} | ${latency(row.baseline)} | ` +
    `${failures(row.gateway)} / ${failures(row.baseline)} | ${fixed(row.gateway.cpuMsPerRequest, 3)} | ` +
    `${fixed(row.baseline?.cpuMsPerRequest ?? Number.NaN, 3)} | ` +
    `${fixed(row.gateway.machineCpuMsPerRequest, 3)} / ${fixed(row.baseline?.machineCpuMsPerRequest ?? Number.NaN, 3)} |`
  )
]

const drainRow = (name: string, drain: Drain, base: number) =>
  `| ${name} | ${drain.messages} | ${fixed(drain.seconds, 2)} | ${fixed(drain.perSecond, 0)} | ${fixed(drain.perSecond / base, 2)}× | ` +
  `${drain.complete ? "yes" : "**no, timed out**"} | ${drain.duplicates} | ${fixed(drain.cpuMsPerMessage, 3)} | ` +
  `${drain.statementsPerMessage === undefined ? "—" : fixed(drain.statementsPerMessage, 3)} | ` +
  `${drain.databaseCpuMsPerMessage === undefined ? "—" : fixed(drain.databaseCpuMsPerMessage, 3)} |`

const drainHeader = [
  "| run | messages | seconds | deliveries/s | vs plain | complete | received twice | sender CPU ms/msg | DB transactions/msg | DB CPU ms/msg |",
  "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|"
]

/** One gateway's worker against the plain POSTs it ran beside: the median of the pairs' ratios. */
const workerRatio = (d: Deliveries) => median(d.atOnce.map(({ plain, one }) => one.perSecond / plain.perSecond))
/** Two gateways against one (the median of the one-gateway drains), the operator answering at once. */
const twoAtOnce = (d: Deliveries) => d.two.perSecond / median(d.atOnce.map(({ one }) => one.perSecond))
const twoSlow = (d: Deliveries) => d.slow.two.perSecond / d.slow.one.perSecond

const deliveryTable = (d: Deliveries): Array<string> => [
  "The operator answering at once; each pair is plain POSTs, then the worker of one gateway:",
  "",
  ...drainHeader,
  ...d.atOnce.flatMap(({ plain, one }, i) => [
    drainRow(`plain signed POSTs, 16 at a time (baseline), pair ${i + 1}`, plain, plain.perSecond),
    drainRow(`delivery worker, one gateway, pair ${i + 1}`, one, plain.perSecond)
  ]),
  drainRow("delivery worker, two gateways on one database (vs the pairs' median plain)", d.two, median(d.atOnce.map(({ plain }) => plain.perSecond))),
  "",
  `Worker / plain, the median of the pairs: **${fixed(workerRatio(d), 2)}×**; two instances / one: **${fixed(twoAtOnce(d), 2)}×**`,
  "",
  "The wallet answering after 20 ms:",
  "",
  ...drainHeader,
  drainRow("plain signed POSTs, 16 at a time (baseline)", d.slow.plain, d.slow.plain.perSecond),
  drainRow("delivery worker, one gateway", d.slow.one, d.slow.plain.perSecond),
  drainRow("delivery worker, two gateways on one database", d.slow.two, d.slow.plain.perSecond),
  "",
  `Two instances / one: **${fixed(twoSlow(d), 2)}×**`,
  "",
  "Sender CPU: the user + system time of whoever sends (the bench process for the plain POSTs, the gateway " +
    "process, or both gateways) from the commit until the stub has every message, per message. DB transactions: " +
    "the database's committed transactions over the drain (`pg_stat_database`, the bench's own polling included), " +
    "per message. DB CPU: the user + system time of every PostgreSQL process on the machine over the drain, per message."
]

/** Decimal MB (10^6 bytes) of MiB (2^20 bytes, the kernel's kB / 1024, as the bench samples them). */
const decimalMb = (mib: number) => mib * 1.048576
const mb = (peak: MemoryPeak) =>
  `${fixed(peak.sampledMb, 1)} MiB sampled, VmHWM ${fixed(peak.highWaterMb, 1)} MiB (${fixed(decimalMb(Math.max(peak.sampledMb, peak.highWaterMb)), 1)} MB)`

/** A target and whether it holds, with the numbers that decide it. */
interface Verdict {
  readonly target: string
  readonly holds: boolean
  readonly detail: string
}

const throughputTarget = (rows: ReadonlyArray<Row>, endpoint: string, factor: number): Array<Verdict> => {
  const measured = rows.filter((row) => row.endpoint === endpoint && row.baseline !== undefined)
  if (measured.length === 0) return []
  const checks = measured.map((row) => {
    const base = row.baseline
    const fast = ratio(row) >= factor
    const tail = base !== undefined && row.gateway.p99 <= base.p99
    // Every run counts here, not only the median pair's.
    const clean = row.pairs.every(({ gateway, baseline }) =>
      gateway.non2xx + gateway.errors + (baseline?.non2xx ?? 0) + (baseline?.errors ?? 0) === 0
    )
    const each = row.pairs.length > 1 ? ` (pairs: ${row.pairs.map((pair) => fixed(ratio(pair), 2)).join(", ")})` : ""
    // Below the factor: what the whole machine spent a request on each side (the ratio it would reach with the
    // cores full) and how busy it was during the gateway's run.
    const machine = fast || base === undefined ? "" : `, machine CPU a request ${fixed(row.gateway.machineCpuMsPerRequest, 2)} vs ` +
      `${fixed(base.machineCpuMsPerRequest, 2)} ms (${fixed(base.machineCpuMsPerRequest / row.gateway.machineCpuMsPerRequest, 2)}× with the ` +
      `cores full; ${fixed(row.gateway.machineBusy * 100, 0)} % busy in the gateway's run)`
    return {
      ok: fast && tail && clean,
      text: `${row.connections} conns: ${fixed(ratio(row), 2)}×${each}${tail ? "" : ", p99 worse"}${clean ? "" : ", non-2xx/errors"}${machine}`
    }
  })
  return [{
    target: `${endpoint} ≥ ${factor}× baseline, p99 ≤ baseline, 0 non-2xx`,
    holds: checks.every((c) => c.ok),
    detail: checks.map((c) => c.text).join("; ")
  }]
}

/** The cached games page against bare node:http answering its bytes: ≥ 0.25× (the median pair), at every connection count. */
const floorTarget = (rows: ReadonlyArray<Row>): Array<Verdict> => {
  const measured = rows.filter((row) => row.endpoint.endsWith("(floor)") && row.baseline !== undefined)
  if (measured.length === 0) return []
  return [{
    target: "cached games page ≥ 0.25× bare node:http answering the same bytes",
    holds: measured.every((row) => ratio(row) >= 0.25),
    detail: measured.map((row) => `${row.connections} conns: ${fixed(ratio(row), 2)}×`).join("; ")
  }]
}

const verdicts = (results: Results): Array<Verdict> => {
  const ready = median(results.ready)
  const rss = Math.max(results.memory.gateway.sampledMb, results.memory.gateway.highWaterMb)
  const drains = (d: Deliveries): Array<Verdict> => {
    const complete = [...d.atOnce.flatMap(({ one }) => [one]), d.two, d.slow.one, d.slow.two].every((drain) => drain.complete)
    return [
      {
        target: "delivery worker ≥ 0.7× plain POSTs (the median of the pairs, operator answering at once)",
        holds: complete && workerRatio(d) >= 0.7,
        detail: `${fixed(workerRatio(d), 2)}× (pairs: ${d.atOnce.map(({ plain, one }) => fixed(one.perSecond / plain.perSecond, 2)).join(", ")})`
      },
      {
        target: "two instances ≥ 1.6× one (wallet answering after 20 ms)",
        holds: complete && twoSlow(d) >= 1.6,
        detail: `${fixed(twoSlow(d), 2)}×; with the operator answering at once ${fixed(twoAtOnce(d), 2)}×, bound by this machine's cores (bench/README.md)`
      }
    ]
  }
  return [
    ...throughputTarget(results.rows, "games page", 5),
    ...throughputTarget(results.rows, "search", 20),
    ...throughputTarget(results.rows, "launch, operator at once", 2),
    ...floorTarget(results.rows),
    ...(results.delivery === undefined ? [] : drains(results.delivery)),
    { target: "gateway peak RSS < 200 MB", holds: decimalMb(rss) < 200, detail: `${fixed(decimalMb(rss), 1)} MB (${fixed(rss, 1)} MiB)` },
    { target: "start to /ready < 1 s", holds: ready < 1000, detail: `median ${fixed(ready, 0)} ms` }
  ]
}

/** The report as markdown. */
export const render = (results: Results): string => [
  "# Operator Gateway bench",
  "",
  ...results.facts.map(([name, value]) => `- ${name}: ${value}`),
  "",
  "## Endpoints",
  "",
  ...endpointTable(results.rows),
  "",
  "Latency is of 2xx answers; CPU is the server process's user + system time over the measured seconds divided by " +
  "the answers (PostgreSQL's CPU is not in it). Machine CPU is every process's on the machine (/proc/stat, all cores): " +
  "the server's, PostgreSQL's, the operator stub's, the load generator's and the kernel's, per answer — on two cores " +
  "it is what caps a rate, so a ratio cannot exceed the baseline's machine CPU over the gateway's. Rounds have no baseline.",
  "",
  ...(results.delivery === undefined ? [] : ["## Delivery worker", "", ...deliveryTable(results.delivery), ""]),
  "## Memory and start-up",
  "",
  `- gateway peak RSS: ${mb(results.memory.gateway)}`,
  `- second gateway (delivery drain only): ${mb(results.memory.secondGateway)}`,
  `- baseline peak RSS: ${mb(results.memory.baseline)}`,
  `- gateway start to /ready on the seeded database: median ${fixed(median(results.ready), 0)} ms (${results.ready.map((ms) => fixed(ms, 0)).join(", ")} ms)`,
  "",
  "## Targets",
  "",
  ...verdicts(results).map((v) => `- ${v.holds ? "✔ holds" : "✘ fails"}: ${v.target} — ${v.detail}`),
  ""
].join("\n")

/** Writes `report` to `bench/results/<YYYY-MM-DD><suffix>.md` and prints it with the file's path. */
export const publish = (suffix: string, report: string): void => {
  const dir = join(import.meta.dirname, "results")
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${new Date().toISOString().slice(0, 10)}${suffix}.md`)
  writeFileSync(file, report)
  console.log(`\n${report}\nWritten to ${file}`)
}
