import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
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

  it.effect("takes over a lock left by a process that is gone", () =>
    Effect.gen(function*() {
      const dataDir = path.join(yield* tempDir, "pg")
      const dead = spawnSync(process.execPath, ["-e", "0"]).pid
      fs.writeFileSync(`${dataDir}.lock`, `${dead}\n`)
      const server = yield* EmbeddedPostgres.make({ dataDir, postgresFlags: fast })
      assert.strictEqual(fs.readFileSync(`${dataDir}.lock`, "utf8"), `${process.pid}\n`)
      const sql = yield* PgClient.make({ url: server.url, maxConnections: 1 })
      assert.deepStrictEqual(yield* sql`SELECT 1 AS one`, [{ one: 1 }])
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer)))
})
