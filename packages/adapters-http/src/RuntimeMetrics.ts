import { Context, Effect, Layer, Metric } from "effect"
import { readdirSync } from "node:fs"
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"

/**
 * The standard process and Node.js runtime series (`process_*`, `nodejs_*`,
 * the names and meanings of Prometheus' client libraries, CONTRACT §8), on
 * Effect `Metric`s like every other series: read when `/metrics` is scraped
 * ({@link RuntimeMetrics}), except the garbage collector's histogram, which
 * a `PerformanceObserver` feeds as collections happen.
 */

const gauge = (name: string, description: string) => Metric.gauge(name, { description })
const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })

const cpuUser = counter("process_cpu_user_seconds_total", "User CPU time spent in seconds")
const cpuSystem = counter("process_cpu_system_seconds_total", "System CPU time spent in seconds")
const cpuTotal = counter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds")
const startTime = gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds")
const resident = gauge("process_resident_memory_bytes", "Resident memory size in bytes")
const openFds = gauge("process_open_fds", "Number of open file descriptors")
const heapTotal = gauge("nodejs_heap_size_total_bytes", "Process heap size from Node.js in bytes")
const heapUsed = gauge("nodejs_heap_size_used_bytes", "Process heap size used from Node.js in bytes")
const external = gauge("nodejs_external_memory_bytes", "Node.js external memory size in bytes")
const resources = gauge("nodejs_active_resources_total", "Number of active resources keeping the event loop alive")
const lagMean = gauge("nodejs_eventloop_lag_mean_seconds", "Mean event loop delay since the previous scrape, in seconds")
const lagP99 = gauge("nodejs_eventloop_lag_p99_seconds", "99th percentile of the event loop delay since the previous scrape, in seconds")
const lagMax = gauge("nodejs_eventloop_lag_max_seconds", "Largest event loop delay since the previous scrape, in seconds")
const [major = "0", minor = "0", patch = "0"] = process.versions.node.split(".")
const versionInfo = Metric.gauge("nodejs_version_info", {
  description: "Node.js version info",
  attributes: { version: process.version, major, minor, patch }
})

const gcKinds: Readonly<Record<number, string>> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb"
}
const gcDuration = Object.fromEntries(Object.values(gcKinds).map((kind) => [
  kind,
  Metric.histogram("nodejs_gc_duration_seconds", {
    description: "Garbage collection duration by kind, one of major, minor, incremental or weakcb",
    boundaries: Metric.boundariesFromIterable([0.001, 0.01, 0.1, 1, 2, 5]),
    attributes: { kind }
  })
]))

const kindOf = (detail: unknown): number =>
  typeof detail === "object" && detail !== null && "kind" in detail && typeof detail.kind === "number" ? detail.kind : -1

const openFdCount = (): number | undefined => {
  try {
    return readdirSync("/proc/self/fd").length
  } catch {
    return undefined
  }
}

/** How often the event loop delay is sampled, in milliseconds. */
const resolutionMs = 10

/** A delay of the histogram (nanoseconds between samples) as seconds beyond the sampling interval. */
const lateSeconds = (nanoseconds: number) => Number.isFinite(nanoseconds) ? Math.max(0, nanoseconds / 1e9 - resolutionMs / 1e3) : 0

const sampler = (eventLoop: ReturnType<typeof monitorEventLoopDelay> | undefined) => {
  let cpu = { user: 0, system: 0 }
  return Effect.suspend(() => {
    const now = process.cpuUsage()
    const [user, system] = [(now.user - cpu.user) / 1e6, (now.system - cpu.system) / 1e6]
    cpu = now
    const memory = process.memoryUsage()
    const fds = openFdCount()
    const lag = eventLoop === undefined ? [] : [
      Metric.update(lagMean, lateSeconds(eventLoop.mean)),
      Metric.update(lagP99, lateSeconds(eventLoop.percentile(99))),
      Metric.update(lagMax, lateSeconds(eventLoop.max))
    ]
    eventLoop?.reset()
    return Effect.all([
      Metric.update(cpuUser, user),
      Metric.update(cpuSystem, system),
      Metric.update(cpuTotal, user + system),
      Metric.update(startTime, Math.round(performance.timeOrigin / 1000)),
      Metric.update(resident, memory.rss),
      ...(fds === undefined ? [] : [Metric.update(openFds, fds)]),
      Metric.update(heapTotal, memory.heapTotal),
      Metric.update(heapUsed, memory.heapUsed),
      Metric.update(external, memory.external),
      Metric.update(resources, process.getActiveResourcesInfo().length),
      Metric.update(versionInfo, 1),
      ...lag
    ], { discard: true })
  })
}

/**
 * Brings the runtime series up to date; `/metrics` runs it before rendering.
 * Without {@link layer}: the process series and the heap, but no event loop
 * delay and no garbage collections.
 */
export const RuntimeMetrics = Context.Reference<{ readonly refresh: Effect.Effect<void> }>(
  "@gateway/adapters-http/RuntimeMetrics",
  { defaultValue: () => ({ refresh: sampler(undefined) }) }
)

/**
 * {@link RuntimeMetrics} with the event loop delay (sampled every 10 ms;
 * mean, p99 and max since the previous scrape, each beyond the 10 ms) and the garbage collector's
 * durations, watched for the life of the layer.
 */
export const layer: Layer.Layer<never> = Layer.effect(
  RuntimeMetrics,
  Effect.gen(function*() {
    const eventLoop = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const histogram = monitorEventLoopDelay({ resolution: resolutionMs })
        histogram.enable()
        return histogram
      }),
      (histogram) => Effect.sync(() => histogram.disable())
    )
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            const kind = gcKinds[kindOf("detail" in entry ? entry.detail : undefined)]
            const metric = kind === undefined ? undefined : gcDuration[kind]
            metric?.updateUnsafe(entry.duration / 1000, Context.empty())
          }
        })
        observer.observe({ entryTypes: ["gc"] })
        return observer
      }),
      (observer) => Effect.sync(() => observer.disconnect())
    )
    return { refresh: sampler(eventLoop) }
  })
)
