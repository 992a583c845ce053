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

/** The URL of database `name` on the server at `url`. */
const urlOf = (url: Redacted.Redacted<string>, name: string): Redacted.Redacted<string> => {
  const parsed = new URL(Redacted.value(url))
  parsed.pathname = `/${name}`
  return Redacted.make(parsed.href)
}

/** A database of its own, a copy of `template` (else of PostgreSQL's empty `template1`), dropped with the scope. */
const scopedDatabase = (template: string | undefined) =>
  Effect.gen(function*() {
    const url = yield* serverUrl
    const admin = yield* PgClient.make({ url, maxConnections: 1 })
    const database = `gw_test_${randomBytes(8).toString("hex")}`
    yield* Effect.acquireRelease(
      template === undefined
        ? admin`CREATE DATABASE ${admin(database)}`
        : admin`CREATE DATABASE ${admin(database)} TEMPLATE ${admin(template)}`,
      () => admin`DROP DATABASE IF EXISTS ${admin(database)} WITH (FORCE)`.pipe(Effect.ignore)
    )
    return urlOf(url, database)
  }).pipe(Effect.provide(Reactivity.layer))

/**
 * A fresh empty database on the server at `DATABASE_URL` (else on an embedded
 * server started for this scope), dropped when the scope closes: its URL, for
 * clients in this process or a child process.
 */
export const scopedDatabaseUrl: Effect.Effect<
  Redacted.Redacted<string>,
  SqlError | EmbeddedPostgres.EmbeddedPostgresError,
  Scope.Scope
> = scopedDatabase(undefined)

/**
 * The variable naming a database on the server at `DATABASE_URL` with every
 * migration applied, which {@link scopedMigratedDatabaseUrl} copies: set by
 * `vitest.global-setup.ts` for the test run ({@link makeTemplate}).
 */
export const templateVariable = "GATEWAY_TEST_TEMPLATE"

/**
 * A database with every migration applied on the server at `url`, marked a
 * template that takes no connection: its name. Copying it gives a test a
 * migrated database in one statement, ~0.4 s of CPU (PostgreSQL's and the
 * migrating process's) and ~0.4 s of waiting less than migrating an empty
 * one (docs/testing.md). {@link dropTemplate} removes it.
 */
export const makeTemplate = (url: Redacted.Redacted<string>): Effect.Effect<string, SqlError | MigrationError> =>
  Effect.gen(function*() {
    const admin = yield* PgClient.make({ url, maxConnections: 1 })
    const name = `gw_template_${randomBytes(8).toString("hex")}`
    yield* admin`CREATE DATABASE ${admin(name)}`
    // Its own scope: the migrator's connections are closed before the database is marked a template.
    yield* Effect.scoped(Effect.gen(function*() {
      const client = yield* PgClient.make({ url: urlOf(url, name), maxConnections: 1 })
      yield* Migrations.run.pipe(Effect.provideService(SqlClient, client))
    }))
    yield* admin`ALTER DATABASE ${admin(name)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`
    return name
  }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))

/** Drops a template made by {@link makeTemplate}. */
export const dropTemplate = (url: Redacted.Redacted<string>, name: string): Effect.Effect<void, SqlError> =>
  Effect.gen(function*() {
    const admin = yield* PgClient.make({ url, maxConnections: 1 })
    yield* admin`ALTER DATABASE ${admin(name)} WITH IS_TEMPLATE false`
    yield* admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`
  }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))

/**
 * A fresh database with every migration applied, dropped when the scope
 * closes: a copy of the run's template ({@link templateVariable}) when there
 * is one, else an empty database ({@link scopedDatabaseUrl}) that the server
 * or {@link layer} migrates. For the tests that are not about migrating.
 */
export const scopedMigratedDatabaseUrl: Effect.Effect<
  Redacted.Redacted<string>,
  SqlError | EmbeddedPostgres.EmbeddedPostgresError,
  Scope.Scope
> = Effect.gen(function*() {
  const template = yield* Config.option(Config.String(templateVariable)).pipe(Effect.orDie)
  return yield* scopedDatabase(Option.getOrUndefined(template))
})

/** A client of a database of its own for one test file, made by `database` and dropped when the layer is released. */
const layerOn = <E>(database: Effect.Effect<Redacted.Redacted<string>, E, Scope.Scope>) =>
  PgClient.layerFrom(Effect.flatMap(database, (url) => PgClient.make({ url, maxConnections: 5 })))

/** A database of its own for one test file ({@link scopedDatabaseUrl}). Not migrated. */
export const layerEmpty: Layer.Layer<
  PgClient.PgClient | SqlClient,
  SqlError | EmbeddedPostgres.EmbeddedPostgresError
> = layerOn(scopedDatabaseUrl)

/**
 * A database of its own for one test file with every migration applied
 * ({@link scopedMigratedDatabaseUrl}; the migrations then find nothing left
 * to do).
 */
export const layer: Layer.Layer<
  PgClient.PgClient | SqlClient,
  SqlError | MigrationError | EmbeddedPostgres.EmbeddedPostgresError
> = Layer.effectDiscard(Migrations.run).pipe(Layer.provideMerge(layerOn(scopedMigratedDatabaseUrl)))
