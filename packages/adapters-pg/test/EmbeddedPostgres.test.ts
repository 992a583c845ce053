import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as EmbeddedPostgres from "../src/db/EmbeddedPostgres.ts"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-ep-test-"))
    fs.chmodSync(dir, 0o755)
    return dir
  }),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

const fast = ["-c", "fsync=off"]

const linux = process.platform === "linux"

/** The fields of `/proc/<pid>/stat` after the command name: [0] is the state, [19] the start time. */
const statOf = (pid: number): Array<string> => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
}

const bootId = () => fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()

const killedWithScope = (start: () => ChildProcess) =>
  Effect.acquireRelease(Effect.sync(start), (child) => Effect.sync(() => child.kill("SIGKILL")))

/** A process that runs (`sleep`) until the scope ends, and is no gateway. */
const bystander = Effect.map(killedWithScope(() => spawn("sleep", ["30"], { stdio: "ignore" })), (c) => c.pid ?? 0)

interface User {
  readonly uid?: number
  readonly gid?: number
}

/**
 * A zombie until the scope ends: the child of a `sleep` (which never reaps)
 * that exits at once, as a gateway killed with its process group stays until
 * its parent reaps it: `kill(pid, 0)` still succeeds.
 */
const zombie = (owner: User = {}) =>
  Effect.gen(function*() {
    const parent = yield* killedWithScope(() =>
      spawn("sh", ["-c", "sleep 0.1 & echo $!; exec sleep 30"], { ...owner, stdio: ["ignore", "pipe", "ignore"] })
    )
    const pid = yield* Effect.callback<number>((resume) => {
      parent.stdout?.once("data", (data: Buffer) => resume(Effect.succeed(Number.parseInt(data.toString(), 10))))
    })
    for (let i = 0; i < 100 && statOf(pid)[0] !== "Z"; i++) yield* Effect.sleep("20 millis")
    assert.strictEqual(statOf(pid)[0], "Z", `process ${pid} did not become a zombie`)
    process.kill(pid, 0)
    return pid
  })

/**
 * The user the embedded server runs as (`postgres` when the tests run as
 * root): PostgreSQL itself starts over a `postmaster.pid` whose process it
 * may not signal, so a stale one matters when it names one of its own.
 */
const serverUser = (): User => {
  if (process.getuid?.() !== 0) return {}
  const id = (flag: string) => Number.parseInt(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout, 10)
  return { uid: id("-u"), gid: id("-g") }
}

/** A `postmaster.pid` naming `pid`, as the server writes it. */
const postmasterPid = (dataDir: string, pid: number) => {
  const file = path.join(dataDir, "postmaster.pid")
  fs.writeFileSync(
    file,
    `${pid}\n${dataDir}\n${Math.floor(Date.now() / 1000)}\n5432\n\n127.0.0.1\n  5432001      1\nready   \n`,
    { mode: 0o600 }
  )
  const { uid, gid } = serverUser()
  if (uid !== undefined && gid !== undefined) fs.chownSync(file, uid, gid)
}

const answers = (sql: PgClient.PgClient) =>
  Effect.map(sql`SELECT 1 AS one`, (rows) => assert.deepStrictEqual(rows, [{ one: 1 }]))

describe("EmbeddedPostgres", () => {
  it.effect("starts, answers, refuses a second server on the same directory, and restarts on it", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* tempDir, "pg")
      yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* EmbeddedPostgres.make({ dataDir, postgresFlags: fast })
        const sql = yield* PgClient.make({ url: server.url, maxConnections: 1 })
        const rows = yield* sql`SELECT current_user AS who, current_setting('server_version_num')::int >= 150000 AS v15`
        assert.deepStrictEqual(rows, [{ who: "postgres", v15: true }])
        const second = yield* Effect.flip(EmbeddedPostgres.make({ dataDir, postgresFlags: fast }))
        assert.strictEqual(
          second.message,
          `embedded PostgreSQL data directory ${dataDir} is already in use by process ${process.pid} ` +
            `(lock file ${dataDir}.lock); stop that server or use another DATA_DIR`
        )
        yield* sql`CREATE TABLE kept (n int)`
      }))
      assert.isFalse(fs.existsSync(`${dataDir}.lock`))
      yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* EmbeddedPostgres.make({ dataDir, postgresFlags: fast })
        const sql = yield* PgClient.make({ url: server.url, maxConnections: 1 })
        assert.deepStrictEqual(yield* sql`SELECT count(*)::int AS n FROM kept`, [{ n: 0 }])
      }))
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer)))

  it.effect("starts on another port when the one it chose is taken before PostgreSQL binds it", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* tempDir, "pg")
      const listening = Effect.callback<net.Server>((resume) => {
        const holder = net.createServer()
        holder.listen(0, "127.0.0.1", () => resume(Effect.succeed(holder)))
      })
      const portOf = (holder: net.Server) => (holder.address() as net.AddressInfo).port
      const closed = (holder: net.Server) => Effect.callback<void>((resume) => void holder.close(() => resume(Effect.void)))
      const takenPort = portOf(yield* Effect.acquireRelease(listening, closed))
      let asked = 0
      // The first attempt gets the port held above; the next, one that was free a moment ago.
      const choosePort = Effect.suspend(() =>
        ++asked === 1 ? Effect.succeed(takenPort) : Effect.flatMap(listening, (free) => Effect.as(closed(free), portOf(free)))
      )
      const server = yield* EmbeddedPostgres.make({ dataDir, postgresFlags: fast, choosePort })
      assert.strictEqual(asked, 2)
      assert.notStrictEqual(server.port, takenPort)
      yield* answers(yield* PgClient.make({ url: server.url, maxConnections: 1 }))
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer)))

  it.effect("takes over a lock left by a process that is gone", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* tempDir, "pg")
      const dead = spawnSync(process.execPath, ["-e", "0"]).pid
      fs.writeFileSync(`${dataDir}.lock`, `${dead}\n`)
      const server = yield* EmbeddedPostgres.make({ dataDir, postgresFlags: fast })
      const owner = fs.readFileSync(`${dataDir}.lock`, "utf8")
      assert.strictEqual(owner, linux ? `${process.pid}\n${statOf(process.pid)[19]}\n${bootId()}\n` : `${process.pid}\n`)
      const sql = yield* PgClient.make({ url: server.url, maxConnections: 1 })
      assert.deepStrictEqual(yield* sql`SELECT 1 AS one`, [{ one: 1 }])
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer)))

  it.live.runIf(linux)("takes over a lock whose owner is a zombie or whose pid went to another process, not a live owner's", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* tempDir, "pg")
      const lockFile = `${dataDir}.lock`
      fs.writeFileSync(lockFile, `${yield* zombie()}\n`)
      yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* EmbeddedPostgres.make({ dataDir, postgresFlags: fast })
        assert.strictEqual(fs.readFileSync(lockFile, "utf8").split("\n")[0], String(process.pid))
        yield* answers(yield* PgClient.make({ url: server.url, maxConnections: 1 }))
      }))
      const other = yield* bystander
      const started = statOf(other)[19]
      for (const owner of [`${other}\n`, `${other}\n${started}\n${bootId()}\n`]) {
        fs.writeFileSync(lockFile, owner)
        const refused = yield* Effect.flip(EmbeddedPostgres.make({ dataDir, postgresFlags: fast }))
        assert.include(refused.message, `is already in use by process ${other} `)
        assert.strictEqual(fs.readFileSync(lockFile, "utf8"), owner)
      }
      for (const owner of [`${other}\n${Number(started) + 1}\n${bootId()}\n`, `${other}\n${started}\nan-earlier-boot\n`]) {
        fs.writeFileSync(lockFile, owner)
        yield* Effect.scoped(Effect.gen(function*() {
          const server = yield* EmbeddedPostgres.make({ dataDir, postgresFlags: fast })
          yield* answers(yield* PgClient.make({ url: server.url, maxConnections: 1 }))
        }))
      }
      process.kill(other, 0)
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer)))

  it.live.runIf(linux)("starts over a postmaster.pid naming a zombie or another process, and leaves that process be", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* tempDir, "pg")
      yield* Effect.scoped(EmbeddedPostgres.make({ dataDir, postgresFlags: fast }))
      postmasterPid(dataDir, yield* zombie(serverUser()))
      yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* EmbeddedPostgres.make({ dataDir, postgresFlags: fast })
        yield* answers(yield* PgClient.make({ url: server.url, maxConnections: 1 }))
      }))
      const other = yield* bystander
      postmasterPid(dataDir, other)
      fs.writeFileSync(`${dataDir}.lock`, `${spawnSync(process.execPath, ["-e", "0"]).pid}\n`)
      yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* EmbeddedPostgres.make({ dataDir, postgresFlags: fast })
        yield* answers(yield* PgClient.make({ url: server.url, maxConnections: 1 }))
      }))
      assert.strictEqual(statOf(other)[0], "S")
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer)))
})
