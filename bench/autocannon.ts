import { execFile } from "node:child_process"
import { join } from "node:path"

const bin = join(import.meta.dirname, "..", "node_modules", ".bin", "autocannon")

/** The numbers of one autocannon run. */
export interface Run {
  readonly name: string
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  readonly errors: number
}

/** Runs autocannon against a loopback URL for `seconds` with `connections`, returning its summary. */
export const autocannon = (
  name: string,
  url: string,
  options: { readonly connections: number; readonly seconds: number; readonly headers?: Record<string, string> }
): Promise<Run> =>
  new Promise((resolve, reject) => {
    const headers = Object.entries(options.headers ?? {}).flatMap(([k, v]) => ["-H", `${k}=${v}`])
    execFile(
      bin,
      ["-j", "-c", String(options.connections), "-d", String(options.seconds), ...headers, url],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return reject(error)
        const r = JSON.parse(stdout)
        resolve({
          name,
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors + r.timeouts
        })
      }
    )
  })

/** Prints runs as a table with each one's throughput relative to the first (the baseline). */
export const report = (runs: ReadonlyArray<Run>) => {
  const base = runs[0]?.rps ?? 1
  console.log("| run | req/s | vs baseline | p50 ms | p99 ms | non-2xx | errors |")
  console.log("|---|---:|---:|---:|---:|---:|---:|")
  for (const r of runs) {
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${(r.rps / base).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`)
  }
}
