import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { layerConfig } from "../src/Database.ts"

const withEnv = (env: Record<string, string>) =>
  layerConfig.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))

describe("Database.layerConfig", () => {
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
      }).pipe(Effect.provide(withEnv({ DATA_DIR: path.join(dir, "data") })))
      assert.deepStrictEqual(games, [{ n: 6 }])
      assert.isTrue(fs.existsSync(path.join(dir, "data", "pg", "PG_VERSION")))
    }).pipe(Effect.scoped))

  it.effect("fails start-up with one clear error when the database cannot be reached", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.provide(Effect.service(SqlClient), withEnv({ DATABASE_URL: "postgres://nobody:pw@127.0.0.1:1/none" }))
      )
      assert.strictEqual(error._tag, "DatabaseStartupError")
      assert.match(error.message, /^cannot connect to the database: /)
      assert.notInclude(error.message, "pw@")
      assert.notInclude(error.message, "\n")
    }))
})
