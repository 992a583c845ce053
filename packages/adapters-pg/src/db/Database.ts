import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Schema } from "effect"
import type { Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomBytes } from "node:crypto"
import * as path from "node:path"
import * as EmbeddedPostgres from "./EmbeddedPostgres.ts"
import * as Migrations from "./Migrations.ts"

/** The database could not be reached, started or migrated; one line for the operator, no secrets. */
export class DatabaseStartupError extends Schema.TaggedError<DatabaseStartupError>()("DatabaseStartupError", {
  message: Schema.String
}) {}

/** Where the database is: a server at `url`, else an embedded PostgreSQL in `dataDir/pg`. */
export interface DatabaseOptions {
  readonly url: Option.Option<Redacted.Redacted<string>>
  readonly dataDir: string
  /** Connection pool size. Default {@link defaultMaxConnections}. */
  readonly maxConnections?: number | undefined
}

/** The connection pool size when none is given. */
export const defaultMaxConnections = 10

/**
 * The `application_name` of this process's connections, one per process
 * (`operator-gateway/<random>`): DBAs tell the gateway and its instances
 * apart in `pg_stat_activity`, and the pool metrics count this instance's
 * connections there. It replaces one the URL may give.
 */
export const applicationName = `operator-gateway/${randomBytes(6).toString("hex")}`

const startupError = (what: string) => (error: { readonly message: string }) =>
  new DatabaseStartupError({ message: `${what}: ${error.message}` })

/**
 * A migrated database: connects to `url` when given, else starts the
 * embedded PostgreSQL in `<dataDir>/pg` for the life of the layer. Provides
 * `SqlClient` and `PgClient`.
 */
export const layer = (
  options: DatabaseOptions
): Layer.Layer<PgClient.PgClient | SqlClient, DatabaseStartupError> =>
  PgClient.layerFrom(Effect.gen(function*() {
    const url = Option.isSome(options.url)
      ? options.url.value
      : (yield* EmbeddedPostgres.make({ dataDir: path.join(options.dataDir, "pg") }).pipe(
        Effect.mapError(startupError("embedded PostgreSQL"))
      )).url
    const client = yield* PgClient.make({
      url,
      maxConnections: options.maxConnections ?? defaultMaxConnections,
      applicationName
    }).pipe(
      Effect.tap((sql) => sql`SELECT 1`),
      Effect.mapError(startupError("cannot connect to the database"))
    )
    yield* Migrations.run.pipe(
      Effect.provideService(SqlClient, client),
      Effect.mapError(startupError("database migration failed"))
    )
    return client
  }))
