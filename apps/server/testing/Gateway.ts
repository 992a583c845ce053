import { Effect, Redacted, type Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"

/** The server as `npm start` runs it: the bundle `npm ci` prepares (the test run rebuilds it first). */
const main = join(import.meta.dirname, "..", "dist", "main.mjs")

/**
 * The environment assignments and node flags of the root `npm start` line
 * (`[NAME=value …] node [--flag …] apps/server/dist/main.mjs`), so a spawned
 * gateway runs exactly as `npm start` runs it. GATEWAY_NODE_OPTIONS adds
 * flags (a profiler, say).
 */
export const startLine = (): { readonly env: Record<string, string>; readonly flags: ReadonlyArray<string> } => {
  const manifest: unknown = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "..", "package.json"), "utf8"))
  const scripts = typeof manifest === "object" && manifest !== null && "scripts" in manifest ? manifest.scripts : undefined
  const start = typeof scripts === "object" && scripts !== null && "start" in scripts ? String(scripts.start) : ""
  const words = start.split(/\s+/).filter(Boolean)
  const node = words.indexOf("node")
  const env = Object.fromEntries(words.slice(0, Math.max(0, node)).map((word) => word.split("=", 2) as [string, string]))
  const flags = words.slice(node + 1).filter((word) => word.startsWith("--"))
  return { env, flags: [...flags, ...(process.env["GATEWAY_NODE_OPTIONS"]?.split(" ").filter(Boolean) ?? [])] }
}

/** A free TCP port on 127.0.0.1. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** A gateway server running as a child process, as an operator would run it. */
export interface Gateway {
  readonly url: string
  readonly authSecret: string
  readonly output: () => string
  readonly process: ChildProcess
  /** Sends a signal and resolves with the exit code. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

const waitUntilHealthy = async (url: string, child: ChildProcess, output: () => string) => {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}: ${output()}`)
    try {
      if ((await fetch(`${url}/health`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`gateway did not become healthy: ${output()}`)
}

/**
 * scrypt's cost in the gateways and CLI runs the tests start unless `env` sets another: 2^10, ~6 ms a hash, where
 * the default 2^15 took ~200 ms of CPU on this project's 2-core machines, for every merchant created (two hashes),
 * back-office sign-in and e-mail code, ~420 hashes in a test run (docs/testing.md). The default stays tested: the
 * README's embedded run sets 15, and PasswordHash.test.ts checks what a hash at the default is.
 */
export const testPasswordHashCost = "10"

/**
 * Spawns the server as `npm start` runs it with `env` and waits for `/health`.
 * It stops at once on SIGTERM (`SHUTDOWN_DRAIN_SECONDS=0`) unless `env` asks
 * for a drain: no balancer watches a test's `/ready`. scrypt runs at
 * {@link testPasswordHashCost} unless `env` sets `PASSWORD_HASH_COST`. `entry` runs another
 * build of the server (an earlier release's `dist/main.mjs`).
 */
export const spawnGateway = async (env: Record<string, string>, entry: string = main): Promise<Gateway> => {
  const port = await freePort()
  const authSecret = env["AUTH_JWT_SECRET"] ?? randomBytes(32).toString("base64url")
  const line = startLine()
  const child = spawn(process.execPath, [...line.flags, entry], {
    env: {
      ...line.env,
      PATH: process.env["PATH"] ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      AUTH_JWT_SECRET: authSecret,
      SHUTDOWN_DRAIN_SECONDS: "0",
      PASSWORD_HASH_COST: testPasswordHashCost,
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (d: Buffer) => output += d.toString())
  child.stderr?.on("data", (d: Buffer) => output += d.toString())
  const url = `http://127.0.0.1:${port}`
  const stop = (signal: NodeJS.Signals = "SIGTERM") =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode)
      child.once("exit", (code) => resolve(code))
      child.kill(signal)
    })
  await waitUntilHealthy(url, child, () => output).catch(async (error) => {
    await stop("SIGKILL")
    throw error
  })
  return { url, authSecret, output: () => output, process: child, stop }
}

/** A gateway on a fresh database of its own, migrated (PgTest.scopedMigratedDatabaseUrl), stopped and dropped with the scope. */
export const gateway = (env: Record<string, string> = {}): Effect.Effect<Gateway, unknown, Scope.Scope> =>
  Effect.gen(function*() {
    const databaseUrl = yield* PgTest.scopedMigratedDatabaseUrl
    return yield* Effect.acquireRelease(
      Effect.promise(() =>
        spawnGateway({
          DATABASE_URL: Redacted.value(databaseUrl),
          DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
          ALLOW_PRIVATE_OPERATOR_URLS: "true",
          ...env
        })
      ),
      (g) => Effect.promise(() => g.stop("SIGKILL"))
    )
  })

/** Runs a child process to the end: its exit code and output. */
export const runToExit = (env: Record<string, string>): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve) => {
    const line = startLine()
    const child = spawn(process.execPath, [...line.flags, main], {
      env: { ...line.env, PATH: process.env["PATH"] ?? "", HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (d: Buffer) => output += d.toString())
    child.stderr.on("data", (d: Buffer) => output += d.toString())
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000)
    child.on("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
