/**
 * One measured run: autocannon (in the bench's own process) against a server
 * on 127.0.0.1, with a 1 s warm-up first, every request built afresh so API
 * keys, sessions and parameters rotate. CPU per request is read from the
 * server process's /proc/<pid>/stat around the measured part.
 */
import autocannon from "autocannon"
import { cpuMs } from "./proc.ts"

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
  /** Answers by status code, to explain non-2xx. */
  readonly statuses: Readonly<Record<string, number>>
}

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN

/** Sends `load` for `seconds` (or, when given, `amount` requests) at `connections`. */
export const fire = async (target: Target, load: Load, connections: number, seconds: number, amount?: number) => {
  const first = load.next()
  const latencies: Array<number> = []
  const instance = autocannon({
    url: target.url,
    connections,
    ...(amount === undefined ? { duration: seconds } : { amount }),
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
    if (status >= 200 && status < 300) latencies.push(ms)
  })
  const result = await instance
  return { result, latencies }
}

/** Warms up for 1 s, then measures `seconds` at `connections`. */
export const measure = async (target: Target, load: Load, connections: number, seconds: number): Promise<Run> => {
  await fire(target, load, connections, 1)
  const cpuBefore = cpuMs(target.pid)
  const { result, latencies } = await fire(target, load, connections, seconds)
  const cpu = cpuMs(target.pid) - cpuBefore
  const sorted = Float64Array.from(latencies).sort()
  const requests = result.requests.total
  return {
    requests,
    rps: requests / (result.duration > 0 ? result.duration : seconds),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMsPerRequest: requests > 0 ? cpu / requests : Number.NaN,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count]))
  }
}
