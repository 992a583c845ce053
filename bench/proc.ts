/**
 * What the bench reads of a server process from /proc: CPU time (utime +
 * stime) and resident memory (VmRSS sampled, VmHWM the kernel's own peak).
 */
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"

/** Clock ticks per second of /proc/<pid>/stat (`getconf CLK_TCK`, else the usual 100). */
export const clockTicks: number = (() => {
  try {
    const ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim())
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100
  } catch {
    return 100
  }
})()

/**
 * Milliseconds of the clock-tick fields `indexes` of a /proc/<pid>/stat text, counted after the command name
 * (in parentheses, may hold spaces): state is [0], utime [11], stime [12], cutime [13], cstime [14].
 */
const statMs = (stat: string, indexes: ReadonlyArray<number>): number => {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (indexes.reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) / clockTicks) * 1000
}

/** CPU milliseconds (user + system) a process has used so far; 0 once it is gone. */
export const cpuMs = (pid: number): number => {
  try {
    return statMs(readFileSync(`/proc/${pid}/stat`, "utf8"), [11, 12])
  } catch {
    return 0
  }
}

/**
 * CPU milliseconds all PostgreSQL processes on this machine have used so far
 * (by command name), those that have ended included: a backend whose
 * connection closed is reaped by the postmaster, whose `cutime`/`cstime`
 * then hold its CPU (without them, a pool closing an idle connection during a
 * measurement took that connection's whole life off the difference). The
 * bench reads differences over a drain, when nothing else uses the database
 * server.
 */
export const databaseCpuMs = (): number => {
  let total = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      // Its own user and system time, and its children's it waited for.
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) === "postgres") total += statMs(stat, [11, 12, 13, 14])
    } catch {
      // gone meanwhile
    }
  }
  return total
}

/** The machine's CPU time so far, all cores, in clock ticks: `busy` (every state but idle and iowait) and `total`. */
export interface MachineCpu {
  readonly busy: number
  readonly total: number
}

/** The first line of /proc/stat, all cores together; zeros where there is none. */
export const machineCpu = (): MachineCpu => {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number)
    const total = fields.reduce((sum, n) => sum + n, 0)
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total }
  } catch {
    return { busy: 0, total: 0 }
  }
}

/** The machine's busy CPU milliseconds, all cores and every process, between two readings. */
export const busyMs = (from: MachineCpu, to: MachineCpu): number => ((to.busy - from.busy) / clockTicks) * 1000

/** The share (0–1) of the machine's CPU time, all cores, that was busy between two readings. */
export const busyShare = (from: MachineCpu, to: MachineCpu): number =>
  to.total > from.total ? (to.busy - from.busy) / (to.total - from.total) : Number.NaN

export const statusKb = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match === null ? 0 : Number(match[1])
  } catch {
    return 0
  }
}

/** The kernel's peak resident set of a running process (VmHWM), in MB. */
export const highWaterMb = (pid: number): number => statusKb(pid, "VmHWM") / 1024

/** Peak memory of the watched processes, by name. */
export interface MemoryPeak {
  /** The largest VmRSS seen by sampling every 100 ms, MB. */
  readonly sampledMb: number
  /** VmHWM read just before the process was stopped, MB. */
  readonly highWaterMb: number
}

/**
 * Samples VmRSS of the watched processes every 100 ms for the whole bench.
 * `final` reads VmHWM of a process before it is stopped.
 */
export const memoryWatch = () => {
  const watched = new Map<string, number>()
  const sampled = new Map<string, number>()
  const highWater = new Map<string, number>()
  const sample = () => {
    for (const [name, pid] of watched) {
      const mb = statusKb(pid, "VmRSS") / 1024
      if (mb > (sampled.get(name) ?? 0)) sampled.set(name, mb)
    }
  }
  const timer = setInterval(sample, 100)
  timer.unref()
  return {
    watch: (name: string, pid: number) => {
      watched.set(name, pid)
      sample()
    },
    final: (name: string) => {
      const pid = watched.get(name)
      if (pid === undefined) return
      sample()
      highWater.set(name, Math.max(highWater.get(name) ?? 0, highWaterMb(pid)))
      watched.delete(name)
    },
    peak: (name: string): MemoryPeak => ({ sampledMb: sampled.get(name) ?? 0, highWaterMb: highWater.get(name) ?? 0 }),
    close: () => clearInterval(timer)
  }
}
export type MemoryWatch = ReturnType<typeof memoryWatch>
