/**
 * Where a gateway's CPU went, by source module: `node bench/modules.ts
 * <profile.cpuprofile> [depth]` reads a `--cpu-prof` profile of the bundle
 * (e.g. `BENCH_ONLY=gateway GATEWAY_NODE_OPTIONS="--cpu-prof
 * --cpu-prof-dir=/tmp/prof" npm run bench:bet`) and charges each sample to
 * the module of the bundle whose code was running, found by the `// path`
 * comments esbuild writes before each module. Work outside the bundle (a
 * socket write, a signature, a hash) is charged to the module that called
 * it, and named: `[writeBuffer] packages/adapters-pg/src/db/Watchdog.ts`.
 * The idle loop, the collector and V8's own work are rows of their own.
 * `depth` (default 6) cuts the module paths: 3 gives packages and libraries.
 * Environment: FROM, TO (seconds into the profile: the measured run alone),
 * BUNDLE (default apps/server/dist/server.cjs), ROWS (default 40).
 *
 * CALLERS=<regular expression>: instead, the samples whose module matches it
 * (e.g. `Schema|schema`, or `effect/dist/internal` for Effect's runtime),
 * each charged to the nearest function up its stack whose module matches
 * CALLER (default `^packages/`, our code), as shares of the busy samples
 * (idle left out): who pays for the schemas, or which of our resumptions
 * the runtime's work follows.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"

interface Frame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
}
interface ProfileNode {
  readonly id: number
  readonly callFrame: Frame
  readonly children?: ReadonlyArray<number>
}
interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const [file, depthArg] = process.argv.slice(2)
if (file === undefined) throw new Error("usage: node bench/modules.ts <profile.cpuprofile> [depth]")
const depth = Number(depthArg ?? 6)
const bundle = process.env["BUNDLE"] ?? join(import.meta.dirname, "..", "apps", "server", "dist", "server.cjs")
const bundleName = bundle.split("/").pop() ?? ""
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile

/** The first line of each module in the bundle, in order. */
const starts: Array<{ readonly line: number; readonly module: string }> = []
readFileSync(bundle, "utf8").split("\n").forEach((text, i) => {
  const found = /^\/\/ ((?:node_modules|packages|apps)\/\S+)$/.exec(text)
  if (found !== null) starts.push({ line: i + 1, module: found[1]! })
})
/** The module a line of the bundle belongs to ("(bundle runtime)" before the first: esbuild's helpers, top-level code). */
const bundleModuleAt = (line: number): string => {
  let low = 0, high = starts.length - 1, found = "(bundle runtime)"
  while (low <= high) {
    const middle = (low + high) >> 1
    if (starts[middle]!.line <= line) {
      found = starts[middle]!.module
      low = middle + 1
    } else high = middle - 1
  }
  return found
}
/** {@link bundleModuleAt}, its path cut at `depth`. */
const moduleOf = (line: number): string => {
  const found = bundleModuleAt(line)
  const parts = found.split("/")
  return parts.slice(0, found.startsWith("node_modules/@") ? depth + 1 : depth).join("/")
}

const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
const inBundle = (node: ProfileNode) => node.callFrame.url.endsWith(bundleName)
const own = new Set(["(idle)", "(garbage collector)", "(program)", "(root)"])

const from = Number(process.env["FROM"] ?? 0) * 1e6, to = Number(process.env["TO"] ?? Infinity) * 1e6
const callers = process.env["CALLERS"] === undefined ? undefined : new RegExp(process.env["CALLERS"])
const caller = new RegExp(process.env["CALLER"] ?? "^packages/")
/** A frame's module at full depth ("(outside the bundle)" for Node's own code), for CALLERS and CALLER. */
const fullModuleOf = (node: ProfileNode): string =>
  inBundle(node) ? bundleModuleAt(node.callFrame.lineNumber + 1) : "(outside the bundle)"
/** The row of a sample charged to its caller: the nearest frame whose module matches CALLER, by function and line. */
const callerOf = (id: number): string => {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const node = byId.get(at)!
    const module = fullModuleOf(node)
    if (caller.test(module)) return `${node.callFrame.functionName || "(anonymous)"} ${module}:${node.callFrame.lineNumber + 1}`
  }
  return "(no caller of ours)"
}
const rows = new Map<string, number>()
let elapsed = 0, counted = 0, matched = 0
profile.samples.forEach((id, i) => {
  elapsed += profile.timeDeltas[i] ?? 0
  if (elapsed < from || elapsed >= to) return
  const node = byId.get(id)!
  let row = node.callFrame.functionName
  if (callers !== undefined) {
    if (row === "(idle)") return
    counted++
    if (!callers.test(fullModuleOf(node))) return
    matched++
    row = callerOf(id)
  } else {
    counted++
    if (!own.has(row)) {
      const native = inBundle(node) ? "" : `[${row || "(anonymous)"}] `
      let at: number | undefined = id
      while (at !== undefined && !inBundle(byId.get(at)!)) at = parent.get(at)
      row = native + (at === undefined ? "(outside the bundle)" : moduleOf(byId.get(at)!.callFrame.lineNumber + 1))
    }
  }
  rows.set(row, (rows.get(row) ?? 0) + 1)
})
console.log(callers === undefined
  ? `${counted} samples`
  : `${counted} busy samples, ${matched} (${(100 * matched / counted).toFixed(1)} %) in modules matching ${callers.source}, by caller:`)
for (const [row, count] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env["ROWS"] ?? 40))) {
  console.log(`${(100 * count / counted).toFixed(1).padStart(5)} %  ${row}`)
}
