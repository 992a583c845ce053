/**
 * "Start to /ready": the server spawned on an existing, seeded database,
 * `/ready` polled every 20 ms until it answers 200. (`spawnGateway` waits for
 * /health at 100 ms steps, too coarse for this, so the process is spawned here
 * the same way: the bundle `apps/server/dist/main.mjs` with the flags of
 * `npm start`, as `spawnGateway` runs it, which `npm run bench` builds first.)
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort, startLine } from "@gateway/server/testing"
import { stopProcess, track } from "./children.ts"

/** The server's bundle, found next to the package's testing module (where `spawnGateway` finds it). */
const mainModule = join(dirname(fileURLToPath(import.meta.resolve("@gateway/server/testing"))), "..", "dist", "main.mjs")

/** Milliseconds from spawn until `/ready` answered 200; the process is stopped afterwards. */
export const startToReady = (env: Record<string, string>, timeoutMs = 30_000): Promise<number> =>
  startUntilReady(env, { timeoutMs })

/**
 * {@link startToReady} with options: `main`, another build's `main.mjs` (a
 * copy of `dist/`, bench/starts.ts); `atReady`, run with the process once
 * `/ready` answered, before it is stopped.
 */
export const startUntilReady = async (
  env: Record<string, string>,
  options: {
    readonly main?: string
    readonly timeoutMs?: number
    readonly atReady?: (child: ChildProcess) => Promise<void>
  } = {}
): Promise<number> => {
  const main = options.main ?? mainModule
  const timeoutMs = options.timeoutMs ?? 30_000
  if (!existsSync(main)) throw new Error(`${main} is missing: build it with \`node apps/server/build.ts\``)
  const port = await freePort()
  const started = performance.now()
  const line = startLine()
  const child = track(spawn(process.execPath, [...line.flags, main], {
    env: { ...line.env, PATH: process.env["PATH"] ?? "", HOST: "127.0.0.1", ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"]
  }))
  let output = ""
  child.stderr.on("data", (d: Buffer) => output += d.toString())
  try {
    while (performance.now() - started < timeoutMs) {
      if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}: ${output}`)
      const ok = await fetch(`http://127.0.0.1:${port}/ready`).then(async (r) => {
        await r.arrayBuffer()
        return r.ok
      }, () => false)
      if (ok) {
        const readyMs = performance.now() - started
        await options.atReady?.(child)
        return readyMs
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`gateway was not ready within ${timeoutMs} ms: ${output}`)
  } finally {
    await stopProcess(child)
  }
}
