/**
 * Every process the bench starts is registered here, so that all of them
 * are killed when the bench ends, fails, is interrupted or runs out of time.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import type { Server } from "node:net"
import { join } from "node:path"

const children = new Set<ChildProcess>()

/** Registers a child process so that {@link killAll} reaches it. */
export const track = <C extends ChildProcess>(child: C): C => {
  children.add(child)
  child.once("exit", () => children.delete(child))
  return child
}

/** Kills every registered child still running (SIGKILL: nothing of theirs is kept). */
export const killAll = (): void => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  }
}

const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null

/**
 * Kills any direct child of the bench still running that it did not start
 * itself (an embedded PostgreSQL of a scope that did not close). Read from
 * /proc: every process whose parent is this one.
 */
export const killStrayChildren = (): Array<{ readonly pid: number; readonly command: string }> => {
  const killed: Array<{ pid: number; command: string }> = []
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      if (ppid === process.pid) {
        const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").trim()
        process.kill(Number(entry), "SIGKILL")
        killed.push({ pid: Number(entry), command })
      }
    } catch {
      // gone already
    }
  }
  return killed
}

/** Sends `signal`, then SIGKILL after `graceMs` if the process is still there; resolves once it exited. */
export const stopProcess = (child: ChildProcess, signal: NodeJS.Signals = "SIGTERM", graceMs = 12_000): Promise<void> =>
  new Promise((resolve) => {
    if (exited(child)) return resolve()
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill(signal)
  })

/** A helper server of the bench (operator stub, baseline) in its own process. */
export interface Helper {
  readonly url: string
  readonly process: ChildProcess
  readonly pid: number
  readonly output: () => string
  readonly stop: () => Promise<void>
}

/**
 * Runs `node bench/<script>` with `env` and waits for its first stdout line,
 * `{"port":N}`. Its stdin stays open as a lifeline: the helpers exit when it
 * closes, so they do not outlive the bench even when it is killed.
 */
export const startHelper = (script: string, env: Record<string, string>, timeoutMs = 20_000): Promise<Helper> =>
  new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [join(import.meta.dirname, script)], {
      env: { PATH: process.env["PATH"] ?? "", ...env },
      stdio: ["pipe", "pipe", "pipe"]
    }))
    let output = ""
    let started = false
    const fail = (reason: string) => {
      if (started) return
      started = true
      clearTimeout(timer)
      child.kill("SIGKILL")
      reject(new Error(`${script}: ${reason}\n${output}`))
    }
    const timer = setTimeout(() => fail("did not print its port in time"), timeoutMs)
    child.stderr.on("data", (d: Buffer) => output += d.toString())
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString()
      const match = /\{"port":(\d+)\}/.exec(output)
      if (started || match === null || child.pid === undefined) return
      started = true
      clearTimeout(timer)
      const pid = child.pid
      resolve({
        url: `http://127.0.0.1:${match[1]}`,
        process: child,
        pid,
        output: () => output,
        stop: () => stopProcess(child, "SIGTERM", 5_000)
      })
    })
    child.once("exit", (code) => fail(`exited with ${code}`))
  })

/**
 * Kills every child when the bench is interrupted or exits, and bounds the
 * whole run: after `budgetMs` the children are killed so the awaited work
 * fails and the bench ends through its own clean-up. Returns the disarm.
 */
export const guard = (budgetMs: number): (() => void) => {
  const stop = (why: string) => {
    console.error(`\nbench: ${why}; stopping every child process`)
    killAll()
    setTimeout(() => process.exit(1), 30_000).unref()
  }
  const onSignal = (signal: NodeJS.Signals) => stop(`received ${signal}`)
  process.once("SIGINT", onSignal)
  process.once("SIGTERM", onSignal)
  process.once("exit", killAll)
  const timer = setTimeout(() => stop(`time budget of ${Math.round(budgetMs / 1000)} s exceeded`), budgetMs)
  timer.unref()
  return () => {
    clearTimeout(timer)
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
  }
}

/**
 * The helper's side of {@link startHelper}: `server` listens on a free port of 127.0.0.1 and the port is printed
 * as `{"port":N}`; SIGTERM, or the bench going away (its stdin pipe closes), runs `stop` (default: exit at once).
 */
export const serveHelper = (server: Server, stop: () => void = () => process.exit(0)): void => {
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    process.stdout.write(`${JSON.stringify({ port })}\n`)
  })
  process.on("SIGTERM", stop)
  process.stdin.on("end", stop).resume()
}
