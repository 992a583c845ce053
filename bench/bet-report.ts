/**
 * The bet bench's report: rounds per second on both servers, what a round
 * costs the database, two gateways against one, the exactly-once check, and
 * whether each target of bench/README.md ("The bet path") holds.
 */
import type { Run } from "./autocannon.ts"
import type { DbCost, SettledCheck } from "./bet-db.ts"
import type { MemoryPeak } from "./proc.ts"
import { median } from "./report.ts"

/** One wallet speed at one connection count: every pair of runs (gateway, then plain). */
export interface BetRow {
  readonly wallet: "fast" | "slow"
  readonly connections: number
  readonly pairs: ReadonlyArray<{ readonly gateway: Run; readonly plain: Run }>
}

/** One gateway at `connections`, then two at `connections` each, the wallet answering after 20 ms. */
export interface TwoRow {
  readonly connections: number
  readonly one: Run
  readonly two: ReadonlyArray<Run>
}

/** Everything the bet bench measured. */
export interface BetResults {
  readonly facts: ReadonlyArray<readonly [string, string]>
  readonly rows: ReadonlyArray<BetRow>
  readonly cost: { readonly gateway: DbCost; readonly plain: DbCost; readonly autoplay: DbCost }
  readonly two: ReadonlyArray<TwoRow>
  readonly check: { readonly gateway: SettledCheck; readonly plain: SettledCheck }
  readonly memory: { readonly gateway: MemoryPeak; readonly plain: MemoryPeak; readonly second: MemoryPeak }
  readonly notes: ReadonlyArray<string>
}

const f = (n: number, digits: number) => Number.isFinite(n) ? n.toFixed(digits) : "—"
/** A share (0–1) as a whole percentage. */
export const percent = (share: number) => `${f(share * 100, 0)} %`
const ratioOf = (pair: BetRow["pairs"][number]) => pair.gateway.rps / pair.plain.rps
const bad = (run: Run) => run.non2xx + run.errors

/** The pair whose ratio is the median (the lower middle of an even count). */
const middle = (row: BetRow) => [...row.pairs].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor((row.pairs.length - 1) / 2)]

const walletName = { fast: "at once", slow: "after 20 ms" } as const

/** The report as Markdown. */
export const renderBet = (results: BetResults): string => {
  const lines: Array<string> = ["# Bench: the bet path (real rounds), gateway vs plain", ""]
  for (const [name, value] of results.facts) lines.push(`- ${name}: ${value}`)
  lines.push(
    "",
    "## Real rounds",
    "",
    "| wallet | conn | gateway rounds/s | plain rounds/s | ratio | pairs' ratios | gateway p50 / p99 ms | plain p50 / p99 ms | gateway CPU ms/round | plain CPU ms/round | machine CPU ms/round, gw / plain | non-2xx (gw / plain) |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"
  )
  for (const row of results.rows) {
    const pair = middle(row)
    if (pair === undefined) continue
    const { gateway, plain } = pair
    lines.push(
      `| ${walletName[row.wallet]} | ${row.connections} | ${f(gateway.rps, 0)} | ${f(plain.rps, 0)} | **${f(ratioOf(pair), 2)}×** | ` +
        `${row.pairs.map((p) => f(ratioOf(p), 2)).join(" / ")} | ${f(gateway.p50, 2)} / ${f(gateway.p99, 2)} | ` +
        `${f(plain.p50, 2)} / ${f(plain.p99, 2)} | ${f(gateway.cpuMsPerRequest, 3)} | ${f(plain.cpuMsPerRequest, 3)} | ` +
        `${f(gateway.machineCpuMsPerRequest, 3)} / ${f(plain.machineCpuMsPerRequest, 3)} | ` +
        `${row.pairs.map((p) => bad(p.gateway)).join("+")} / ${row.pairs.map((p) => bad(p.plain)).join("+")} |`
    )
  }
  const { gateway: gc, plain: pc, autoplay: ac } = results.cost
  lines.push(
    "",
    `## The database per round (${gc.rounds} rounds at 16 connections, wallet at once, each server alone, credits delivered)`,
    "",
    "| | transactions | rows written | WAL bytes | PostgreSQL CPU ms | server CPU ms |",
    "|---|---:|---:|---:|---:|---:|",
    `| gateway | ${f(gc.transactionsPerRound, 2)} | ${f(gc.rowsPerRound, 2)} | ${f(gc.walBytesPerRound, 0)} | ${f(gc.databaseCpuMsPerRound, 3)} | ${f(gc.serverCpuMsPerRound, 3)} |`,
    `| plain | ${f(pc.transactionsPerRound, 2)} | ${f(pc.rowsPerRound, 2)} | ${f(pc.walBytesPerRound, 0)} | ${f(pc.databaseCpuMsPerRound, 3)} | ${f(pc.serverCpuMsPerRound, 3)} |`,
    `| gateway, autoplay rounds (${ac.rounds}) | ${f(ac.transactionsPerRound, 2)} | ${f(ac.rowsPerRound, 2)} | ${f(ac.walBytesPerRound, 0)} | ${f(ac.databaseCpuMsPerRound, 3)} | ${f(ac.serverCpuMsPerRound, 3)} |`,
    "",
    "## Two gateways on one database (wallet after 20 ms)",
    "",
    "The machine's busy share is of all its cores and every process on it (gateways, PostgreSQL, the stub, the load",
    "generator), read from /proc/stat over the measured seconds: where one gateway already keeps it near 100 %, a",
    "second has no core to run on.",
    "",
    "| conn each | one rounds/s | two rounds/s | two / one | machine busy, one / two | p99 one / two ms | non-2xx |",
    "|---:|---:|---:|---:|---:|---:|---:|"
  )
  for (const row of results.two) {
    const total = row.two.reduce((sum, run) => sum + run.rps, 0)
    lines.push(
      `| ${row.connections} | ${f(row.one.rps, 0)} | ${f(total, 0)} | **${f(total / row.one.rps, 2)}×** | ` +
        `${percent(row.one.machineBusy)} / ${percent(row.two[0]?.machineBusy ?? Number.NaN)} | ${f(row.one.p99, 2)} / ${row.two.map((run) => f(run.p99, 2)).join(", ")} | ${bad(row.one) + row.two.reduce((s, r) => s + bad(r), 0)} |`
    )
  }
  lines.push(
    "",
    "## Every answered bet debited once and credited once",
    "",
    "| | answered 2xx | settled, one debit + one credit in its ledger | debited once at the wallet | credited once at the wallet | repeats / booked twice (all rounds) | outboxes drained |",
    "|---|---:|---:|---:|---:|---:|---|"
  )
  for (const who of ["gateway", "plain"] as const) {
    const c = results.check[who]
    lines.push(`| ${who} | ${c.answered} | ${c.booked} | ${c.debitedOnce} | ${c.creditedOnce} | ${c.repeats} / ${c.doubles} | ${c.drained ? "yes" : "**no**"} |`)
  }
  const mb = (peak: MemoryPeak) => `${f(peak.sampledMb, 1)} MiB sampled, ${f(peak.highWaterMb, 1)} MiB VmHWM`
  lines.push("", `Peak RSS: gateway ${mb(results.memory.gateway)}; second gateway ${mb(results.memory.second)}; plain ${mb(results.memory.plain)}.`)
  lines.push("", "## Targets", "")
  const at = (wallet: BetRow["wallet"], connections: number) => results.rows.find((r) => r.wallet === wallet && r.connections === connections)
  for (const connections of [16, 64]) {
    const row = at("fast", connections)
    const pair = row === undefined ? undefined : middle(row)
    if (row === undefined || pair === undefined) continue
    const ratio = median(row.pairs.map(ratioOf))
    const ok = ratio >= 2 && pair.gateway.p99 <= pair.plain.p99 && pair.gateway.cpuMsPerRequest <= 1 &&
      row.pairs.every((p) => bad(p.gateway) === 0)
    lines.push(
      `- real round, wallet at once, @${connections}: ratio ${f(ratio, 2)}× (≥ 2), p99 ${f(pair.gateway.p99, 2)} vs ${f(pair.plain.p99, 2)} ms, ` +
        `gateway CPU ${f(pair.gateway.cpuMsPerRequest, 3)} ms/round (≤ 1.0), non-2xx ${row.pairs.map((p) => bad(p.gateway)).join("+")}: ${ok ? "**holds**" : "**misses**"}` +
        (ok ? "" : `; machine CPU a round ${f(pair.gateway.machineCpuMsPerRequest, 2)} vs ${f(pair.plain.machineCpuMsPerRequest, 2)} ms ` +
          `(${f(pair.plain.machineCpuMsPerRequest / pair.gateway.machineCpuMsPerRequest, 2)}× with the cores full)`)
    )
  }
  for (const row of results.two) {
    const ratio = row.two.reduce((s, r) => s + r.rps, 0) / row.one.rps
    const saturated = (row.two[0]?.machineBusy ?? 0) >= 0.9 ? `, the machine ${percent(row.two[0]?.machineBusy ?? Number.NaN)} busy` : ""
    lines.push(`- two gateways vs one, wallet after 20 ms, @${row.connections} each: ${f(ratio, 2)}× (≥ 1.7): ${ratio >= 1.7 ? "**holds**" : "**misses**"}${saturated}`)
  }
  lines.push(
    `- database transactions per round: gateway ${f(gc.transactionsPerRound, 2)} vs plain ${f(pc.transactionsPerRound, 2)}: ` +
      `${gc.transactionsPerRound <= pc.transactionsPerRound ? "**holds**" : "**misses**"}; WAL ${f(gc.walBytesPerRound, 0)} vs ${f(pc.walBytesPerRound, 0)} bytes a round`
  )
  const exact = (c: SettledCheck) => c.answered === c.booked && c.answered === c.debitedOnce && c.answered === c.creditedOnce && c.repeats === 0 && c.doubles === 0
  lines.push(`- every answered bet settled exactly once: gateway ${exact(results.check.gateway) ? "**holds**" : "**misses**"}, plain ${exact(results.check.plain) ? "yes" : "no"}`)
  const peak = Math.max(results.memory.gateway.sampledMb, results.memory.gateway.highWaterMb) * 1.048576
  lines.push(`- gateway peak RSS ${f(peak, 1)} MB (< 200): ${peak < 200 ? "**holds**" : "**misses**"}`)
  if (results.notes.length > 0) lines.push("", "## Notes", "", ...results.notes.map((n) => `- ${n}`))
  return `${lines.join("\n")}\n`
}
