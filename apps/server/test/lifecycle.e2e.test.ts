import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { get } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { json, startOperator } from "@gateway/adapters-operator/testing"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { freePort, type Gateway, runToExit, spawnGateway, startLine } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
let databaseUrl: string

beforeAll(async () => {
  databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const encryptionKey = randomBytes(32).toString("base64")
const base = () => ({
  DATABASE_URL: databaseUrl,
  DATA_ENCRYPTION_KEY: encryptionKey,
  AUTH_JWT_SECRET: randomBytes(32).toString("base64url")
})

/** The fields of `/proc/<pid>/stat` after the command name: [0] the state, [2] the process group; undefined when gone. */
const statOf = (pid: number): Array<string> | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  } catch {
    return undefined
  }
}

const firstLine = (file: string) => Number.parseInt(readFileSync(file, "utf8").split("\n")[0] ?? "", 10)

/**
 * A gateway on the embedded database in `dataDir`, as `npm start` runs it,
 * in a process group of its own (its postmaster with it) under a parent that
 * never reaps it: killed, it stays a zombie, as a killed gateway does until
 * its parent (or init) gets round to reaping it. Resolves once /health answers.
 */
const crashable = async (dataDir: string, parents: Array<ChildProcess>) => {
  const port = await freePort()
  const line = startLine()
  const main = join(import.meta.dirname, "..", "dist", "main.mjs")
  const parent = spawn("sh", ["-c", `setsid "$0" "$@" & exec sleep 60`, process.execPath, ...line.flags, main], {
    env: { ...line.env, PATH: process.env["PATH"] ?? "", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"]
  })
  parents.push(parent)
  let output = ""
  parent.stdout?.on("data", (d: Buffer) => output += d.toString())
  parent.stderr?.on("data", (d: Buffer) => output += d.toString())
  const url = `http://127.0.0.1:${port}`
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if (output.includes("gateway: cannot start")) throw new Error(output)
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) {
      const pid = firstLine(join(dataDir, "pg.lock"))
      return { url, pid, group: Number(statOf(pid)?.[2]) }
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`gateway did not become healthy: ${output}`)
}

/** The status of a GET on a connection of its own (no keep-alive), or `refused` when nothing accepts it. */
const freshGet = (url: string): Promise<number | "refused"> =>
  new Promise((resolve) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    request.on("error", () => resolve("refused"))
  })

/** The JSON lines of a gateway's output whose message is `message`. */
const logLines = (output: string, message: string): Array<Record<string, unknown>> =>
  output.split("\n").filter((line) => line.startsWith("{")).map((line): Record<string, unknown> => JSON.parse(line))
    .filter((line) => line["message"] === message)

const waitFor = async (done: () => boolean, what: string) => {
  for (const deadline = Date.now() + 5_000; !done(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
  }
}

describe("starting and stopping the server", () => {
  for (const [name, value] of [["PORT", "eighty"], ["LAUNCH_TOKEN_TTL_SECONDS", "-5"], ["DETAILS_TIMEOUT_MS", "soon"],
    ["RATE_LIMIT_RPS", "many"], ["LOG_LEVEL", "loud"]] as const) {
    it(`stops with one clear line when ${name} is bad`, async () => {
      const { code, output } = await runToExit({ ...base(), PORT: String(await freePort()), [name]: value })
      assert.notStrictEqual(code, 0)
      const lines = output.trim().split("\n")
      assert.strictEqual(lines.length, 1, output)
      assert.match(lines[0] ?? "", /^gateway: cannot start: /)
      assert.include(lines[0], name)
    })
  }

  it("refuses to start on DATABASE_URL without a way to verify admin tokens, without printing secrets", async () => {
    const env = base()
    const { code, output } = await runToExit({
      DATABASE_URL: env.DATABASE_URL,
      DATA_ENCRYPTION_KEY: env.DATA_ENCRYPTION_KEY,
      PORT: String(await freePort())
    })
    assert.notStrictEqual(code, 0)
    assert.include(output, "AUTH_JWT_SECRET")
    assert.notInclude(output, env.DATA_ENCRYPTION_KEY)
  })

  it("names an unreachable database in one line without its password", async () => {
    const port = await freePort()
    const { code, output } = await runToExit({
      ...base(),
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://gateway:s3cret-pw@127.0.0.1:${port}/nope`
    })
    assert.notStrictEqual(code, 0)
    assert.strictEqual(output.trim().split("\n").length, 1, output)
    assert.include(output, "database")
    assert.notInclude(output, "s3cret-pw")
  })

  it("names an unreachable REDIS_URL without its password, and does not start", async () => {
    const { code, output } = await runToExit({
      ...base(),
      PORT: String(await freePort()),
      REDIS_URL: `redis://:r3dis-pw@127.0.0.1:${await freePort()}`
    })
    assert.notStrictEqual(code, 0)
    // The Redis client's own warning of the refused connection may come first; the last line says why it stopped.
    assert.match(output.trim().split("\n").at(-1) ?? "", /^gateway: cannot start: REDIS_URL: Redis could not be reached$/)
    assert.notInclude(output, "r3dis-pw")
  })

  it("keeps its code cache in NODE_COMPILE_CACHE once it has run two seconds (an earlier build's removed), starts from it without writing it again, and writes none with NODE_DISABLE_COMPILE_CACHE=1", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "gateway-code-cache-"))
    const cacheFile = () => {
      // (Node's own compile cache, of the small entry point, sits beside it in a folder of its own.)
      const names = readdirSync(cacheDir).filter((name) => name.startsWith("server-"))
      assert.strictEqual(names.length, 1, names.join(", "))
      assert.match(names[0]!, new RegExp(`^server-${process.version}-${process.arch}-[0-9a-f]{8}\\.v8$`))
      return join(cacheDir, names[0]!)
    }
    const runFor = async (ms: number, env: Record<string, string>) => {
      const gw = await spawnGateway({ ...base(), ...env })
      assert.strictEqual((await fetch(`${gw.url}/ready`)).status, 200)
      await new Promise((resolve) => setTimeout(resolve, ms))
      assert.strictEqual(await gw.stop(), 0)
    }
    try {
      // The cache of an earlier build of the bundle: not read, and removed once this build's is made.
      writeFileSync(join(cacheDir, `server-${process.version}-${process.arch}-00000000.v8`), "an earlier build's")
      await runFor(2_500, { NODE_COMPILE_CACHE: cacheDir })
      const made = statSync(cacheFile())
      assert.isAbove(made.size, 1_000_000, "the code of the bundle's functions, not only of its top level")
      await runFor(2_500, { NODE_COMPILE_CACHE: cacheDir })
      assert.strictEqual(statSync(cacheFile()).mtimeMs, made.mtimeMs, "accepted, so not made again")
      const off = mkdtempSync(join(tmpdir(), "gateway-code-cache-off-"))
      await runFor(2_500, { NODE_COMPILE_CACHE: off, NODE_DISABLE_COMPILE_CACHE: "1" })
      assert.deepStrictEqual(readdirSync(off).filter((name) => name.startsWith("server-")), [])
      rmSync(off, { recursive: true, force: true })
    } finally {
      rmSync(cacheDir, { recursive: true, force: true })
    }
  })

  it("finishes an in-flight request on SIGTERM, then exits 0 and stops listening", async () => {
    const operator = await startOperator((r, res) => {
      setTimeout(() => json(res, 200, { playerId: JSON.parse(r.body).playerId, currency: "ETB", balance: "5.00" }), 1000)
    })
    try {
      const env = { ...base(), ALLOW_PRIVATE_OPERATOR_URLS: "true", DETAILS_TIMEOUT_MS: "5000" }
      const gw = await spawnGateway(env)
      const admin = { authorization: `Bearer ${await adminToken(env.AUTH_JWT_SECRET)}` }
      const api = `${gw.url}/api/v1.1/operator-api`
      const merchant = await call(`${api}/create`, {
        method: "POST", headers: admin,
        json: { countryCodes: ["ET"], companyName: "Stop Co", email: "stop@example.com", providerId: 1 }
      })
      await call(`${api}/merchants/${merchant.body.id}/settings`, {
        method: "PUT", headers: admin, json: { userDetailsUrl: `${operator.url}/details` }
      })
      const key = await call(`${api}/merchants/${merchant.body.id}/api-keys`, { method: "POST", headers: admin })
      const inflight = call(`${api}/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s`, {
        headers: { "sv-api-key": key.body.apiKey }
      })
      while (operator.received.length === 0) await new Promise((r) => setTimeout(r, 20))
      const exit = gw.stop("SIGTERM")
      const answer = await inflight
      assert.strictEqual(answer.status, 200, answer.text)
      assert.strictEqual(await exit, 0)
      const after = await fetch(`${gw.url}/health`).then(() => "answered", () => "refused")
      assert.strictEqual(after, "refused")
    } finally {
      await operator.close()
    }
  })

  it("drains on SIGTERM: /ready 503 for SHUTDOWN_DRAIN_SECONDS while new connections are served, then the listener closes after the request in flight, with a line at start and at stop", async () => {
    const operator = await startOperator((r, res) => {
      setTimeout(() => json(res, 200, { playerId: JSON.parse(r.body).playerId, currency: "ETB", balance: "5.00" }), 2500)
    })
    const drainSeconds = 2
    let gw: Gateway | undefined
    try {
      const env = { ...base(), ALLOW_PRIVATE_OPERATOR_URLS: "true", SHUTDOWN_DRAIN_SECONDS: String(drainSeconds) }
      gw = await spawnGateway(env)
      const [started] = logLines(gw.output(), "gateway started")
      const manifest: unknown = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8"))
      assert.deepInclude(started, {
        version: typeof manifest === "object" && manifest !== null && "version" in manifest ? manifest.version : "?",
        database: "external"
      })
      assert.match(String(started?.["instance"]), /^operator-gateway\/[0-9a-f]{12}$/)
      // The tests' cheap scrypt (spawnGateway's PASSWORD_HASH_COST=10) is said at start, once.
      assert.lengthOf(gw.output().split("\n").filter((line) => line.includes("PASSWORD_HASH_COST is 10, below the default 15")), 1)
      const admin = { authorization: `Bearer ${await adminToken(env.AUTH_JWT_SECRET)}` }
      const api = `${gw.url}/api/v1.1/operator-api`
      const merchant = await call(`${api}/create`, {
        method: "POST", headers: admin,
        json: { countryCodes: ["ET"], companyName: "Drain Co", email: "drain@example.com", providerId: 1 }
      })
      await call(`${api}/merchants/${merchant.body.id}/settings`, {
        method: "PUT", headers: admin, json: { userDetailsUrl: `${operator.url}/details` }
      })
      const key = await call(`${api}/merchants/${merchant.body.id}/api-keys`, { method: "POST", headers: admin })
      assert.strictEqual(await freshGet(`${gw.url}/ready`), 200)

      const signalled = Date.now()
      const exit = gw.stop("SIGTERM")
      // The drain begins when the process acts on the signal (its "gateway stopping" line): a probe the loop
      // answered before that, on a loaded machine, is not part of it.
      const stopping = gw
      for (let waited = 0; logLines(stopping.output(), "gateway stopping").length === 0; waited += 10) {
        if (waited > 5000) throw new Error("no 'gateway stopping' line 5 s after SIGTERM")
        await new Promise((r) => setTimeout(r, 10))
      }
      const seen: Array<{ readonly ms: number; readonly ready: number | "refused"; readonly health: number | "refused" }> = []
      let inflight: ReturnType<typeof call> | undefined
      for (let closed = false; !closed;) {
        const [ready, health] = [await freshGet(`${gw.url}/ready`), await freshGet(`${gw.url}/health`)]
        const ms = Date.now() - signalled
        seen.push({ ms, ready, health })
        closed = ready === "refused" && health === "refused"
        // A launch that begins during the drain and ends after the listener closed (the operator answers in 2.5 s).
        if (inflight === undefined && ready === 503 && ms >= 500) {
          inflight = call(`${api}/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s`, {
            headers: { "sv-api-key": key.body.apiKey }
          })
        }
        if (ms > 15_000) throw new Error(`still listening 15 s after SIGTERM: ${JSON.stringify(seen)}`)
        await new Promise((r) => setTimeout(r, 100))
      }
      const open = seen.filter((s) => s.ready !== "refused")
      assert.isNotEmpty(open)
      assert.deepStrictEqual([...new Set(open.map((s) => s.ready))], [503], "/ready from SIGTERM until the listener closes")
      // The two probes of a sample go one after the other: the listener may close between them, so the last open
      // sample's /health may be refused; every earlier one answered 200.
      const healthWhileOpen = open.slice(0, -1).map((s) => s.health)
      if (open.at(-1)?.health !== "refused") healthWhileOpen.push(open.at(-1)?.health ?? "refused")
      assert.deepStrictEqual([...new Set(healthWhileOpen)], [200], "/health meanwhile, on new connections")
      const lastOpen = seen.findLastIndex((s) => s.ready !== "refused")
      assert.isTrue(seen.slice(lastOpen + 1).every((s) => s.health === "refused"), "closed for good")
      const firstRefused = seen.find((s) => s.ready === "refused")?.ms ?? 0
      assert.isAtLeast(firstRefused, drainSeconds * 1000 - 100, "the listener closes after the drain")
      // Soon after the drain (slack for a loaded machine: each sample is two requests).
      assert.isAtMost(open.at(-1)?.ms ?? 0, drainSeconds * 1000 + 5000)
      assert.isDefined(inflight)
      const answer = await inflight
      assert.strictEqual(answer.status, 200, answer.text)
      assert.strictEqual(await exit, 0)
      const output = gw.output()
      assert.lengthOf(logLines(output, "gateway started"), 1)
      assert.deepInclude(logLines(output, "gateway stopping")[0], { drainSeconds, instance: started?.["instance"] })
      assert.lengthOf(logLines(output, "gateway stopped"), 1)
      assert.isAbove(output.indexOf("\"gateway stopped\""), output.indexOf("\"gateway stopping\""))
    } finally {
      await gw?.stop("SIGKILL")
      await operator.close()
    }
  })

  it.runIf(process.platform === "linux")(
    "starts again at once on its DATA_DIR after SIGKILL, its process a zombie and its postgres dead or left running",
    async () => {
      const dataDir = join(mkdtempSync(join(tmpdir(), "gateway-crash-")), "data")
      const parents: Array<ChildProcess> = []
      const groups: Array<number> = []
      let third: Gateway | undefined
      try {
        const first = await crashable(dataDir, parents)
        groups.push(first.group)
        assert.strictEqual(first.group, first.pid, "the gateway leads its own process group")
        const secret = readFileSync(join(dataDir, "auth-jwt.secret"), "utf8").trim()
        const admin = { authorization: `Bearer ${await adminToken(secret)}` }
        const api = "/api/v1.1/operator-api"
        const merchant = await call(`${first.url}${api}/create`, {
          method: "POST", headers: admin,
          json: { countryCodes: ["ET"], companyName: "Crash Co", email: "crash@example.com", providerId: 1 }
        })
        assert.strictEqual(merchant.status, 201)

        // The whole process group, postgres with it: the gateway stays a zombie holding the lock.
        process.kill(-first.group, "SIGKILL")
        await waitFor(() => statOf(first.pid)?.[0] === "Z", "the killed gateway to be a zombie")
        assert.strictEqual(firstLine(join(dataDir, "pg.lock")), first.pid)
        const second = await crashable(dataDir, parents)
        groups.push(second.group)

        // The gateway alone: its postgres is left running.
        const postmaster = firstLine(join(dataDir, "pg", "postmaster.pid"))
        process.kill(second.pid, "SIGKILL")
        await waitFor(() => statOf(second.pid)?.[0] === "Z", "the killed gateway to be a zombie")
        assert.notInclude(["Z", undefined], statOf(postmaster)?.[0], "its postgres runs on")
        third = await spawnGateway({ DATA_DIR: dataDir, AUTH_JWT_SECRET: secret })
        assert.include(["Z", undefined], statOf(postmaster)?.[0], "the postgres left behind was stopped")
        assert.strictEqual((await fetch(`${third.url}/ready`)).status, 200)
        const kept = await call(`${third.url}${api}/merchants/${merchant.body.id}`, { headers: admin })
        assert.strictEqual(kept.status, 200, kept.text)
        assert.strictEqual(await third.stop("SIGTERM"), 0)
      } finally {
        await third?.stop("SIGKILL")
        for (const group of groups) {
          try {
            process.kill(-group, "SIGKILL")
          } catch {
            // gone
          }
        }
        for (const parent of parents) parent.kill("SIGKILL")
        rmSync(join(dataDir, ".."), { recursive: true, force: true })
      }
    }
  )
})
