import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql/SqlClient"
import { randomBytes } from "node:crypto"
import * as path from "node:path"
import * as EmbeddedPostgres from "./EmbeddedPostgres.ts"
import * as Migrations from "./Migrations.ts"
import { watchedConnections } from "./Watchdog.ts"

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
  /** `statement_timeout` of the pool's connections. Default {@link defaultStatementTimeoutMs}. */
  readonly statementTimeoutMs?: number | undefined
  /** The reports' own pool ({@link ReportsDatabase}). Default {@link defaultReports}. */
  readonly reports?: ReportsPoolOptions | undefined
  /**
   * Apply the pending migrations first (default true). False (`MIGRATE_ON_START=false`, rolling upgrades):
   * apply none, and refuse to start on a schema older than this version's ({@link Migrations.latestId}); a newer
   * one is fine, as migrations only expand the schema an older version reads.
   */
  readonly migrate?: boolean | undefined
}

/** The reports' pool: its size and its connections' `statement_timeout`. */
export interface ReportsPoolOptions {
  readonly maxConnections: number
  readonly statementTimeoutMs: number
}

/** The connection pool size when none is given. */
export const defaultMaxConnections = 10

/** The `statement_timeout` of the bets', launches' and jobs' connections when none is given. */
export const defaultStatementTimeoutMs = 5_000

/** The reports' pool when none is given. */
export const defaultReports: ReportsPoolOptions = { maxConnections: 3, statementTimeoutMs: 15_000 }

/**
 * How long a connection waits for the first byte of an answer before it takes the server for frozen and closes
 * (`db/Watchdog.ts`): the connection's `statement_timeout` and one more second, so a slow statement is always
 * cancelled by the server, which answers, first.
 */
export const silenceMs = (statementTimeoutMs: number) => statementTimeoutMs + 1_000

/**
 * Session settings of the reports' connections: no parallel workers, so that a report's query takes at most one
 * of the database's cores (with the default two workers per gather, one summary took three, and bets waited for
 * CPU); no JIT (its compilation cost more than it saved: bench/results/2026-11-23-reports-before-0010.md); and a
 * summary CSV whose client stops reading for a minute loses its cursor's transaction (and the download is cut),
 * so a stalled client cannot keep a reports connection.
 */
export const reportSettings: Readonly<Record<string, string>> = {
  max_parallel_workers_per_gather: "0",
  jit: "off",
  idle_in_transaction_session_timeout: "60000"
}

/**
 * Session settings of the pool of bets, launches and jobs: every statement runs its generic plan, made once per
 * connection, rather than a plan made anew for each execution's values. Its statements find rows by key (a
 * session, a round, a token's hash, a merchant), where the values do not change the best plan, and PostgreSQL's
 * own choice (`auto`) kept re-planning the bet path's batched statements on every execution (the custom plan of
 * an `unnest` of a batch's arrays is costed cheaper than the generic one, which assumes ten): planning was
 * 0.39 ms of the database's 1.05 ms of CPU a round (issue 22, bench/README.md). The reports' pool keeps `auto`:
 * their ranges and filters are where the values do change the plan.
 */
export const mainSettings: Readonly<Record<string, string>> = { plan_cache_mode: "force_generic_plan" }

/**
 * The reports' own connections (CONTRACT §8): a second, small pool on the same database, so that reports and CSV
 * exports never take the connections of bets and launches, with their own `statement_timeout`.
 */
export class ReportsDatabase extends Context.Service<ReportsDatabase, SqlClient>()(
  "@gateway/adapters-pg/db/Database/ReportsDatabase"
) {}

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
 * A migrated database: connects to `url` when given, else starts the embedded PostgreSQL in `<dataDir>/pg` for
 * the life of the layer. Migrations run first on a connection of their own, without a time-out (a backfill may
 * take minutes), unless `migrate` is false. Then two pools: `SqlClient`/`PgClient` for everything but reports, and {@link ReportsDatabase};
 * every connection of both runs under its pool's `statement_timeout` and gives up on a frozen server after
 * {@link silenceMs}.
 */
export const layer = (
  options: DatabaseOptions
): Layer.Layer<PgClient.PgClient | SqlClient | ReportsDatabase, DatabaseStartupError> =>
  Layer.effectContext(Effect.gen(function*() {
    const url = Option.isSome(options.url)
      ? options.url.value
      : (yield* EmbeddedPostgres.make({ dataDir: path.join(options.dataDir, "pg") }).pipe(
        Effect.mapError(startupError("embedded PostgreSQL"))
      )).url
    const pool = (maxConnections: number, statementTimeoutMs: number, settings: Record<string, string> = {}) =>
      PgClient.make({
        url,
        maxConnections,
        applicationName,
        startupParameters: { statement_timeout: String(statementTimeoutMs), ...settings },
        stream: watchedConnections(Redacted.value(url), silenceMs(statementTimeoutMs))
      })
    const client = yield* pool(
      options.maxConnections ?? defaultMaxConnections,
      options.statementTimeoutMs ?? defaultStatementTimeoutMs,
      mainSettings
    ).pipe(
      Effect.tap((sql) => sql`SELECT 1`),
      Effect.mapError(startupError("cannot connect to the database"))
    )
    if (options.migrate === false) {
      const applied = yield* Migrations.appliedId.pipe(
        Effect.provideService(SqlClient, client),
        Effect.mapError(startupError("cannot read the schema version"))
      )
      if (applied < Migrations.latestId) {
        return yield* new DatabaseStartupError({
          message: `the database schema is at migration ${applied} and this version needs ${Migrations.latestId}: ` +
            "run `gateway migrate` first (MIGRATE_ON_START=false applies none)"
        })
      }
    } else {
      yield* Effect.scoped(
        PgClient.make({ url, maxConnections: 1, applicationName }).pipe(
          Effect.flatMap((migrator) => Migrations.run.pipe(Effect.provideService(SqlClient, migrator)))
        )
      ).pipe(Effect.mapError(startupError("database migration failed")))
    }
    const reports = options.reports ?? defaultReports
    const reportsClient = yield* pool(reports.maxConnections, reports.statementTimeoutMs, reportSettings).pipe(
      Effect.mapError(startupError("cannot connect to the database"))
    )
    return Context.make(PgClient.PgClient, client).pipe(
      Context.add(SqlClient, client),
      Context.add(ReportsDatabase, reportsClient)
    )
  })).pipe(Layer.provide(Reactivity.layer))
