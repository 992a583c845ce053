import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted, Schedule } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { layer, ReportsDatabase } from "../src/db/Database.ts"
import * as PgTest from "../testing/PgTest.ts"


describe("Database.layer", () => {
  it.effect("without DATABASE_URL starts the embedded server in DATA_DIR and migrates it", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-db-"))
          fs.chmodSync(dir, 0o755)
          return dir
        }),
        (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
      )
      const games = yield* Effect.gen(function*() {
        const sql = yield* SqlClient
        return yield* sql`SELECT count(*)::int AS n FROM games WHERE builtin`
      }).pipe(Effect.provide(layer({ url: Option.none(), dataDir: path.join(dir, "data") })))
      assert.deepStrictEqual(games, [{ n: 6 }])
      assert.isTrue(fs.existsSync(path.join(dir, "data", "pg", "PG_VERSION")))
    }).pipe(Effect.scoped))

  it.effect("fails start-up with one clear error when the database cannot be reached", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.provide(
          Effect.service(SqlClient),
          layer({ url: Option.some(Redacted.make("postgres://nobody:pw@127.0.0.1:1/none")), dataDir: "/nonexistent" })
        )
      )
      assert.strictEqual(error._tag, "DatabaseStartupError")
      assert.match(error.message, /^cannot connect to the database: /)
      assert.notInclude(error.message, "pw@")
      assert.notInclude(error.message, "\n")
    }))
})

describe("Database.layer's time-outs (issue 21)", () => {
  it.effect("runs every statement under a time-out: the bets' pool and the reports' own, which has no parallel workers", () =>
    Effect.gen(function*() {
      const url = yield* PgTest.scopedDatabaseUrl
      const settings = yield* Effect.gen(function*() {
        const sql = yield* SqlClient
        const reports = yield* ReportsDatabase
        const [main] = yield* sql<{ readonly statement_timeout: string }>`SHOW statement_timeout`
        const [report] = yield* reports<{ readonly statement_timeout: string }>`SHOW statement_timeout`
        const [workers] = yield* reports<{ readonly max_parallel_workers_per_gather: string }>`SHOW max_parallel_workers_per_gather`
        return [main?.statement_timeout, report?.statement_timeout, workers?.max_parallel_workers_per_gather]
      }).pipe(Effect.provide(layer({
        url: Option.some(url),
        dataDir: "/nonexistent",
        statementTimeoutMs: 4000,
        reports: { maxConnections: 2, statementTimeoutMs: 12000 }
      })))
      assert.deepStrictEqual(settings, ["4s", "12s", "0"], "a report's query takes one core of the database at most")
    }).pipe(Effect.scoped))

  it.effect("answers a frozen database (SIGSTOP) with a connection error within the time-out, and recovers on SIGCONT", () =>
    Effect.gen(function*() {
      const server = yield* PgTest.startThrowAwayServer
      const pids = () => {
        const postmaster = Number(fs.readFileSync(path.join(server.dataDir, "postmaster.pid"), "utf8").split("\n")[0])
        const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], { encoding: "utf8" })
          .split("\n").map((line) => Number(line.trim())).filter((pid) => pid > 0)
        return [postmaster, ...children]
      }
      const signal = (name: NodeJS.Signals) =>
        Effect.sync(() => {
          for (const pid of pids()) {
            try {
              process.kill(pid, name)
            } catch (error) {
              // A backend that ended between `ps` and its signal (ESRCH) needs none.
              if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error
            }
          }
        })
      yield* Effect.addFinalizer(() => Effect.ignore(signal("SIGCONT")))
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient
        assert.deepStrictEqual(yield* sql`SELECT 1 AS one`, [{ one: 1 }])
        yield* signal("SIGSTOP")
        const started = Date.now()
        const frozen = yield* Effect.flip(sql`SELECT 1 AS one`.pipe(Effect.timeout("20 seconds")))
        const waited = Date.now() - started
        assert.strictEqual(frozen._tag, "SqlError", String(frozen))
        assert.strictEqual(frozen._tag === "SqlError" ? frozen.reason._tag : "", "ConnectionError", String(frozen))
        assert.isBelow(waited, 8_000, "answered within the time-out, not when the database thaws")
        yield* signal("SIGCONT")
        assert.deepStrictEqual(yield* sql`SELECT 1 AS one`.pipe(Effect.retry({ times: 80, schedule: Schedule.spaced("250 millis") })), [{ one: 1 }])
      }).pipe(Effect.provide(layer({ url: Option.some(server.url), dataDir: "/nonexistent", statementTimeoutMs: 2000 })))
    }).pipe(Effect.scoped), 60_000)
})

describe("Database.layer's plans (issue 22)", () => {
  it.effect("plans the bets' statements once per connection, and the reports' for each execution's values (issue 22)", () =>
    Effect.gen(function*() {
      const url = yield* PgTest.scopedDatabaseUrl
      /** Three executions of one statement on one connection (a transaction), then how each was planned. */
      const plans = (client: SqlClient, marker: string) =>
        client.withTransaction(Effect.gen(function*() {
          for (const id of [1, 2, 3]) yield* client`SELECT ${id}::integer AS ${client(marker)}`
          const [row] = yield* client<{ readonly generic_plans: number; readonly custom_plans: number }>`
            SELECT generic_plans::integer AS generic_plans, custom_plans::integer AS custom_plans
            FROM pg_prepared_statements WHERE statement LIKE ${`%${marker}%`} AND statement NOT LIKE '%pg_prepared%'`
          return row
        }))
      const seen = yield* Effect.gen(function*() {
        return { main: yield* plans(yield* SqlClient, "main_marker"), reports: yield* plans(yield* ReportsDatabase, "reports_marker") }
      }).pipe(Effect.provide(layer({ url: Option.some(url), dataDir: "/nonexistent" })))
      assert.deepStrictEqual(seen.main, { generic_plans: 3, custom_plans: 0 }, "one plan, made once, for every round")
      assert.deepStrictEqual(seen.reports, { generic_plans: 0, custom_plans: 3 }, "a report is planned for its own range")
    }).pipe(Effect.scoped))
})
