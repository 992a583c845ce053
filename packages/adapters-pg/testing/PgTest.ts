import { PgClient } from "@effect/sql-pg"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import type { Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { MigrationError } from "effect/sql/Migrator"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as EmbeddedPostgres from "../src/db/EmbeddedPostgres.ts"
import * as Migrations from "../src/db/Migrations.ts"

/** Settings that make a throw-away cluster fast; never use them for data you keep. */
const throwAwayFlags = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]

/**
 * An embedded PostgreSQL in a fresh temporary directory, removed with the
 * scope. For test runs without `DATABASE_URL` (see `vitest.global-setup.ts`).
 */
export const startThrowAwayServer: Effect.Effect<
  EmbeddedPostgres.EmbeddedPostgres,
  EmbeddedPostgres.EmbeddedPostgresError,
  Scope.Scope
> = Effect.acquireRelease(
  Effect.sync(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-pg-"))
    fs.chmodSync(dir, 0o755)
    return dir
  }),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
).pipe(Effect.flatMap((dir) => EmbeddedPostgres.make({ dataDir: path.join(dir, "pg"), postgresFlags: throwAwayFlags })))

const serverUrl = Effect.gen(function*() {
  const url = yield* Config.option(Config.Redacted("DATABASE_URL")).pipe(Effect.orDie)
  if (Option.isSome(url)) return url.value
  return (yield* startThrowAwayServer).url
})

/**
 * A fresh empty database on the server at `DATABASE_URL` (else on an embedded
 * server started for this scope), dropped when the scope closes: its URL, for
 * clients in this process or a child process.
 */
export const scopedDatabaseUrl: Effect.Effect<
  Redacted.Redacted<string>,
  SqlError | EmbeddedPostgres.EmbeddedPostgresError,
  Scope.Scope
> = Effect.gen(function*() {
  const url = yield* serverUrl
  const admin = yield* PgClient.make({ url, maxConnections: 1 })
  const database = `gw_test_${randomBytes(8).toString("hex")}`
  yield* Effect.acquireRelease(
    admin`CREATE DATABASE ${admin(database)}`,
    () => admin`DROP DATABASE IF EXISTS ${admin(database)} WITH (FORCE)`.pipe(Effect.ignore)
  )
  const parsed = new URL(Redacted.value(url))
  parsed.pathname = `/${database}`
  return Redacted.make(parsed.href)
}).pipe(Effect.provide(Reactivity.layer))

/**
 * A database of its own for one test file ({@link scopedDatabaseUrl}),
 * dropped when the layer is released. Not migrated.
 */
export const layerEmpty: Layer.Layer<
  PgClient.PgClient | SqlClient,
  SqlError | EmbeddedPostgres.EmbeddedPostgresError
> = PgClient.layerFrom(Effect.gen(function*() {
  const url = yield* scopedDatabaseUrl
  return yield* PgClient.make({ url, maxConnections: 5 })
}))

/** {@link layerEmpty} with every migration applied. */
export const layer: Layer.Layer<
  PgClient.PgClient | SqlClient,
  SqlError | MigrationError | EmbeddedPostgres.EmbeddedPostgresError
> = Layer.effectDiscard(Migrations.run).pipe(Layer.provideMerge(layerEmpty))
