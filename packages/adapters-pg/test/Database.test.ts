import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { layer } from "../src/db/Database.ts"


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
