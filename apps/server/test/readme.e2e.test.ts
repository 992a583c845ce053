import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes, randomUUID } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { defaultCost } from "@gateway/adapters-operator/crypto/PasswordHash"
import { afterEach, describe, expect, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"

/**
 * The README's walk-through ("Try it with curl") as a reader runs it: every `sh` block of the section pasted, as
 * it is written, into one `bash` at the root of a clone, against a fresh gateway started as the README says
 * (`ALLOW_PRIVATE_OPERATOR_URLS=true`), on both database paths; what each block prints is compared with the
 * `text` block below it (`…` stands for anything within a line; a block without one must print nothing). The
 * README's `http://127.0.0.1:8080` reaches the test's gateway through curl's own configuration (`connect-to` in
 * `~/.curlrc`) and `PUBLIC_BASE_URL`; the example operator listens on the README's port 4000.
 */
const root = join(import.meta.dirname, "..", "..", "..")

interface Step {
  readonly script: string
  readonly expected: string
}

const walkThrough = (readme: string): ReadonlyArray<Step> => {
  const start = readme.indexOf("## Try it with curl")
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1))
  return [...section.matchAll(/```sh\n([\s\S]*?)```(?:\s*```text\n([\s\S]*?)```)?/g)]
    .map((m) => ({ script: m[1] ?? "", expected: m[2] ?? "" }))
}

/** Whether `actual` is `expected` with each `…` standing for any characters of one line (CSV's CRLF read as LF). */
const matches = (expected: string, actual: string): boolean => {
  actual = actual.replaceAll("\r\n", "\n")
  const pattern = expected.trimEnd().split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")
  return new RegExp(`^${pattern}$`).test(actual.trimEnd())
}

/** One `bash`, fed a block at a time; answers what the block printed (stdout and stderr). */
const shell = (cwd: string, env: Record<string, string>) => {
  const child: ChildProcess = spawn("bash", ["--noprofile", "--norc"], { cwd, env, stdio: ["pipe", "pipe", "pipe"] })
  let output = ""
  child.stdout?.on("data", (d: Buffer) => output += d.toString())
  child.stderr?.on("data", (d: Buffer) => output += d.toString())
  child.stdin?.write("exec 2>&1\n")
  const run = async (script: string): Promise<string> => {
    const marker = `__block_done_${randomUUID()}__`
    const from = output.length
    child.stdin?.write(`${script}\necho ${marker}\n`)
    const deadline = Date.now() + 30_000
    while (!output.includes(marker, from)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the block did not finish: ${output.slice(from)}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    return output.slice(from, output.indexOf(marker, from))
  }
  /** Stops what the blocks left running in the background (the example operator), then the shell. */
  const close = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000)
      child.once("exit", () => {
        clearTimeout(timer)
        resolve()
      })
      child.stdin?.write("kill $(jobs -p) 2>/dev/null; wait; exit\n")
    })
  return { run, close }
}

const readme = readFileSync(join(root, "README.md"), "utf8")
const steps = walkThrough(readme)
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A directory that looks like the root of a clone (what the blocks run), with curl pointed at `gateway`'s port. */
const clone = () => {
  const dir = mkdtempSync(join(tmpdir(), "gateway-readme-"))
  for (const name of ["apps", "examples", "node_modules", "package.json"]) symlinkSync(join(root, name), join(dir, name))
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const pointCurl = (dir: string, gateway: Gateway) =>
  writeFileSync(join(dir, ".curlrc"), `connect-to = 127.0.0.1:8080:${new URL(gateway.url).host}\n`)

/** What the gateway logged that explains a block gone wrong: its warnings and errors, and the answers it refused. */
const trouble = (gateway: Gateway) =>
  gateway.output().split("\n")
    .filter((line) => /"level":"(WARN|ERROR|FATAL)"/.test(line) || /"status":[45]\d\d/.test(line))
    .slice(-10)
    .join("\n")

const play = async (dir: string, env: Record<string, string>, gateway: Gateway) => {
  const bash = shell(dir, { PATH: process.env["PATH"] ?? "", HOME: dir, LANG: "C.UTF-8", ...env })
  cleanups.push(bash.close)
  for (const [index, step] of steps.entries()) {
    const printed = await bash.run(step.script)
    if (!matches(step.expected, printed)) {
      expect.soft(`block ${index + 1}:\n${step.script}\nprinted:\n${printed}`, `the gateway's log:\n${trouble(gateway)}`)
        .toBe(`block ${index + 1}:\n${step.script}\nprinted:\n${step.expected}`)
      return
    }
  }
}

describe("the README's walk-through, pasted into bash", () => {
  it("has its blocks: an admin token, a merchant, a key, games, demo and real launches, a round, the wallet, reports, shares, round links and callbacks, a shop, free rounds, terminate", () => {
    expect(steps.length).toBeGreaterThanOrEqual(13)
    const all = steps.map((step) => step.script).join("\n")
    for (const part of ["callbackUrl", "roundDetailsUrl", "shopId=shop-2", "groupBy=shop", "/operator-api/free-rounds", "\"freeRound\":true", "/operator-api/sessions/terminate"]) {
      expect(all).toContain(part)
    }
    expect(steps[0]?.script).toContain("node apps/server/src/cli.ts token issue")
    expect(matches("[…,\"ETB\"]", "[1,\"ETB\"]")).toBe(true)
    expect(matches("[…,\"ETB\"]", "[1,\"USD\"]")).toBe(false)
    expect(matches("a…\nb", "a1\n2\nb")).toBe(false)
  })

  it("stands alone in a clone: every docs/ file it names exists, and no path leads outside the repository", () => {
    const named = [...new Set([...readme.matchAll(/\bdocs\/[\w.-]+\.md\b/g)].map((m) => m[0]))]
    expect(named).toContain("docs/contract.md")
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([])
    expect(readme.match(/\.\.\/[\w.-]+/g) ?? []).toEqual([])
  })

  it("prints what the README shows, with DATABASE_URL", async () => {
    const scope = Effect.runSync(Scope.make())
    cleanups.push(() => Effect.runPromise(Scope.close(scope, Exit.void)))
    const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
    const env = {
      DATABASE_URL: databaseUrl,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      AUTH_JWT_SECRET: randomBytes(32).toString("base64url")
    }
    const gateway = await spawnGateway({ ...env, ALLOW_PRIVATE_OPERATOR_URLS: "true", PUBLIC_BASE_URL: "http://127.0.0.1:8080" })
    cleanups.push(async () => void await gateway.stop("SIGKILL"))
    const dir = clone()
    pointCurl(dir, gateway)
    await play(dir, env, gateway)
  }, 120_000)

  it("prints what the README shows, on the embedded database (the token signed with .data/auth-jwt.secret)", async () => {
    const dir = clone()
    const secret = randomBytes(32).toString("base64url")
    mkdirSync(join(dir, ".data"), { mode: 0o700 })
    writeFileSync(join(dir, ".data", "auth-jwt.secret"), `${secret}\n`, { mode: 0o600 })
    const gateway = await spawnGateway({
      DATA_DIR: join(dir, ".data"),
      AUTH_JWT_SECRET: secret,
      ALLOW_PRIVATE_OPERATOR_URLS: "true",
      PUBLIC_BASE_URL: "http://127.0.0.1:8080",
      // scrypt at its default, as `npm start` hashes (the other tests' gateways run cheaper ones).
      PASSWORD_HASH_COST: String(defaultCost)
    })
    cleanups.push(async () => void await gateway.stop("SIGTERM"))
    pointCurl(dir, gateway)
    await play(dir, {}, gateway)
  }, 120_000)
})
