/**
 * Preloaded into a gateway by the isolation bench (`--import`): its event-loop delay, the time a bet waits before
 * the loop gets to it, and its CPU time. On SIGUSR2 it writes `event-loop-delay {"max":…,"p99":…,"p999":…,"mean":…,
 * "cpuMs":…}` (ms, since the last signal) to stderr and starts again.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"

const histogram = monitorEventLoopDelay({ resolution: 1 })
histogram.enable()
let cpu = process.cpuUsage()
const ms = (ns: number) => Math.round(ns / 1e4) / 100
process.on("SIGUSR2", () => {
  const used = process.cpuUsage(cpu)
  const figures = {
    max: ms(histogram.max),
    p99: ms(histogram.percentile(99)),
    p999: ms(histogram.percentile(99.9)),
    mean: ms(histogram.mean),
    cpuMs: Math.round((used.user + used.system) / 1000)
  }
  cpu = process.cpuUsage()
  process.stderr.write(`event-loop-delay ${JSON.stringify(figures)}\n`)
  histogram.reset()
})
