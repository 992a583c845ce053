import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import pg from "pg"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { runCli } from "../testing/Cli.ts"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"
import { playerSession, startWallet } from "./Wallet.ts"

/*
 * A rolling upgrade as docs/operations.md describes it (issue 26): the previous release serves on its schema; this
 * version's migrations are applied with `gateway migrate` while it goes on taking bets; it keeps serving on the new
 * schema (expand/contract: no migration may break the instance before it), a new instance starts beside it without
 * migrating, and a session opened on the old one plays on the new one.
 *
 * The previous release is built from this repository's history: its sources at `previousRelease` (git archive), the
 * workspace's installed dependencies, its own workspace packages, and its own build script.
 */

/** The last release before this version's migrations (0015 onwards). */
const previousRelease = "b34b013f2d7a4f1d07f8e30c41222d463d61988f"

const root = join(import.meta.dirname, "..", "..", "..")
const run = promisify(execFile)
const scope = Effect.runSync(Scope.make())
const work = mkdtempSync(join(tmpdir(), "gateway-previous-release-"))
const cleanups: Array<() => Promise<unknown>> = []

/** The previous release's server bundle: its `dist/main.mjs`. */
const buildPrevious = async (): Promise<string> => {
  const archive = join(work, "source.tar")
  await run("git", ["-C", root, "archive", "--output", archive, previousRelease, "apps", "packages", "package.json", "tsconfig.json", "tsconfig.base.json"])
  await run("tar", ["-xf", archive, "-C", work])
  // Its dependencies are this workspace's (the lockfile pins the same ones); its own packages are its own.
  const modules = join(work, "node_modules")
  mkdirSync(join(modules, "@gateway"), { recursive: true })
  for (const name of readdirSync(join(root, "node_modules"))) {
    if (name !== "@gateway") symlinkSync(join(root, "node_modules", name), join(modules, name))
  }
  const workspaces: ReadonlyArray<string> = JSON.parse(readFileSync(join(work, "package.json"), "utf8")).workspaces
  for (const folder of workspaces) {
    const { name } = JSON.parse(readFileSync(join(work, folder, "package.json"), "utf8")) as { readonly name: string }
    symlinkSync(join(work, folder), join(modules, name))
  }
  await run(process.execPath, [join(work, "apps", "server", "build.ts")], { cwd: work })
  const main = join(work, "apps", "server", "dist", "main.mjs")
  assert.isTrue(existsSync(main), "the previous release's bundle was built")
  return main
}

let previousMain = ""
/** The previous release's schema: its last migration's id. */
let previousSchema = 0
beforeAll(async () => {
  previousMain = await buildPrevious()
  previousSchema = Math.max(...readdirSync(join(work, "packages", "adapters-pg", "src", "db", "migrations")).map((f) => Number.parseInt(f, 10)))
}, 240_000)

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(work, { recursive: true, force: true })
})

const schemaAt = async (url: string): Promise<number> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return Number((await client.query<{ id: string }>("SELECT max(migration_id)::text AS id FROM gateway_migrations")).rows[0]?.id)
  } finally {
    await client.end()
  }
}

const started = async (env: Record<string, string>, entry?: string): Promise<Gateway> => {
  const gateway = await spawnGateway(env, entry)
  cleanups.push(() => gateway.stop("SIGKILL"))
  return gateway
}

describe("a rolling upgrade from the previous release", () => {
  it("the previous release keeps taking bets while this version's migrations are applied, and both serve after them", async () => {
    const url = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
    const wallet = await startWallet(() => ({ status: 200 }))
    cleanups.push(() => wallet.close())
    const env = {
      DATABASE_URL: url,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      AUTH_JWT_SECRET: randomBytes(32).toString("base64url"),
      ALLOW_PRIVATE_OPERATOR_URLS: "true",
      RATE_LIMIT_RPS: "0"
    }
    const old = await started(env, previousMain)
    assert.strictEqual(await schemaAt(url), previousSchema, "the previous release migrated to its own schema")
    const player = await playerSession(old, wallet.url, "upgrade@example.com")
    const { sessionToken } = await player.newSession()
    assert.strictEqual((await player.bet(sessionToken, "1.00")).status, 200, "a bet on the previous release")

    // Bets go on against the old instance while `gateway migrate` (this version) runs
    let migrating = true
    const during: Array<number> = []
    const betting = (async () => {
      while (migrating) during.push((await player.bet(sessionToken, "1.00")).status)
    })()
    const migrated = await runCli(["migrate"], env)
    migrating = false
    await betting
    assert.strictEqual(migrated.code, 0, migrated.stdout + migrated.stderr)
    const latest = await schemaAt(url)
    assert.isAbove(latest, previousSchema, "this version's migrations were applied")
    assert.isAbove(during.length, 0)
    assert.deepStrictEqual([...new Set(during)], [200], `every bet on the old instance during the migration; it logged: ${old.output().slice(-3000)}`)

    // After them: the old instance still serves, a new one starts without migrating, sessions carry over
    assert.strictEqual((await player.bet(sessionToken, "1.00")).status, 200, "a bet on the old instance after the migration")
    assert.strictEqual((await (await fetch(`${old.url}/ready`)).status), 200)
    const next = await started({ ...env, MIGRATE_ON_START: "false" })
    const onNext = await fetch(`${next.url}/api/v1.1/game-api/rounds`, {
      method: "POST",
      headers: { authorization: `Bearer ${sessionToken}`, "content-type": "application/json" },
      body: JSON.stringify({ stake: "1.00", selection: "even" })
    })
    assert.strictEqual(onNext.status, 200, `the old instance's session on the new one: ${await onNext.text()}`)
    const fresh = await playerSession(next, wallet.url, "after-upgrade@example.com")
    assert.strictEqual((await fresh.bet((await fresh.newSession()).sessionToken, "1.00")).status, 200, "a new merchant's bet on the new instance")
    assert.strictEqual(await schemaAt(url), latest, "the new instance migrated nothing")
    assert.strictEqual(await old.stop("SIGTERM"), 0, "the old instance stops cleanly on the new schema")
  })
})
