/**
 * One measured run: autocannon (in the bench's own process) against a server
 * on 127.0.0.1, with a 1 s warm-up first, every request built afresh so API
 * keys, sessions and parameters rotate. CPU per request is read from the
 * server process's /proc/<pid>/stat around the measured part.
 */
import autocannon from "autocannon"
import { busyMs, busyShare, cpuMs, type MachineCpu, machineCpu } from "./proc.ts"

/** A server under test. */
export interface Target {
  readonly url: string
  readonly pid: number
}

/** A request as the next one to send. */
export interface NextRequest {
  readonly path: string
  readonly headers: Record<string, string>
  readonly body?: string
}

/** What to send: the method, and a builder called before every request. */
export interface Load {
  readonly method: "GET" | "POST"
  readonly next: () => NextRequest
  /** Called with every answer (the bet bench collects the round ids answered). */
  readonly answered?: (status: number, body: string) => void
}

/** The numbers of one measured run. */
export interface Run {
  readonly requests: number
  readonly rps: number
  /** Latency of the 2xx answers, ms. */
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  /** Connection errors and time-outs. */
  readonly errors: number
  /** Server CPU (user + system) per answered request, ms. */
  readonly cpuMsPerRequest: number
  /** The share (0–1) of the whole machine's CPU, all cores and every process, that was busy during the run. */
  readonly machineBusy: number
  /**
   * The whole machine's busy CPU per answered request, ms: the server's, PostgreSQL's, the operator stub's, the
   * load generator's and the kernel's — what one request costs the machine, which caps the rate when it is full.
   */
  readonly machineCpuMsPerRequest: number
  /** Answers by status code, to explain non-2xx. */
  readonly statuses: Readonly<Record<string, number>>
}

/** One run on a line: rate, p50, p99, the server's CPU a request, and what was not 2xx. */
export const brief = (run: Run): string =>
  `${run.rps.toFixed(0)}/s, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, CPU ${run.cpuMsPerRequest.toFixed(3)} ms` +
  (run.non2xx + run.errors > 0 ? `, non-2xx ${run.non2xx} ${JSON.stringify(run.statuses)}, errors ${run.errors}` : "")

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN

/** What a run answered after its warm-up: latencies of the 2xx answers, answers by status, and when it began. */
interface Window {
  readonly latencies: Array<number>
  readonly statuses: Record<string, number>
  /** `performance.now()` when the warm-up ended (or the run began, without one); the CPU is read then. */
  startedAt: number
  cpuAtStart: number
  machineAtStart: MachineCpu
}

/**
 * Sends `load` for `seconds` (or, when given, `amount` requests) at `connections`. With `warmupSeconds`, the run
 * lasts that much longer on the same connections and only the answers to requests sent after the warm-up count.
 */
export const fire = async (
  target: Target,
  load: Load,
  connections: number,
  seconds: number,
  amount?: number,
  warmupSeconds = 0
) => {
  const first = load.next()
  const began = performance.now()
  const window: Window = {
    latencies: [],
    statuses: {},
    startedAt: began,
    cpuAtStart: cpuMs(target.pid),
    machineAtStart: machineCpu()
  }
  const warmupEnd = began + warmupSeconds * 1000
  const timer = warmupSeconds > 0
    ? setTimeout(() => {
      window.startedAt = performance.now()
      window.cpuAtStart = cpuMs(target.pid)
      window.machineAtStart = machineCpu()
    }, warmupSeconds * 1000)
    : undefined
  const instance = autocannon({
    url: target.url,
    connections,
    ...(amount === undefined ? { duration: seconds + warmupSeconds } : { amount }),
    timeout: 10,
    requests: [{
      method: load.method,
      path: first.path,
      headers: first.headers,
      ...(first.body === undefined ? {} : { body: first.body }),
      ...(load.answered === undefined ? {} : { onResponse: load.answered }),
      setupRequest: (request) => {
        const next = load.next()
        return { ...request, path: next.path, headers: next.headers, ...(next.body === undefined ? {} : { body: next.body }) }
      }
    }]
  })
  instance.on("response", (_client, status, _bytes, ms) => {
    // Sent after the warm-up: its answer time less its latency.
    if (performance.now() - ms < warmupEnd) return
    window.statuses[status] = (window.statuses[status] ?? 0) + 1
    if (status >= 200 && status < 300) window.latencies.push(ms)
  })
  const result = await instance
  clearTimeout(timer)
  return { result, window, endedAt: performance.now() }
}

/**
 * Measures `seconds` at `connections` after a 1 s warm-up on the same connections: the numbers are of the
 * requests sent after it. (A warm-up of its own closed its connections, and the measured run opened
 * `connections` new ones at once: the first answers of that burst were the slowest of a run, most of its p99 at
 * 64 connections; bench/README.md, "The seventh pass".) Errors and non-2xx answers are counted over the
 * warm-up too, so that none goes unseen.
 */
export const measure = async (target: Target, load: Load, connections: number, seconds: number): Promise<Run> => {
  const { result, window, endedAt } = await fire(target, load, connections, seconds, undefined, 1)
  const cpu = cpuMs(target.pid) - window.cpuAtStart
  const machineAtEnd = machineCpu()
  const sorted = Float64Array.from(window.latencies).sort()
  const requests = Object.values(window.statuses).reduce((sum, n) => sum + n, 0)
  const elapsed = (endedAt - window.startedAt) / 1000
  return {
    requests,
    rps: requests / (elapsed > 0 ? elapsed : seconds),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMsPerRequest: requests > 0 ? cpu / requests : Number.NaN,
    machineBusy: busyShare(window.machineAtStart, machineAtEnd),
    machineCpuMsPerRequest: requests > 0 ? busyMs(window.machineAtStart, machineAtEnd) / requests : Number.NaN,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count]))
  }
}
