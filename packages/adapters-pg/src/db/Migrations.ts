import { Effect, Schedule } from "effect"
import * as Migrator from "effect/sql/Migrator"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { m0001_core } from "./migrations/0001_core.ts"
import { m0002_games_search } from "./migrations/0002_games_search.ts"
import { m0003_signing_keys } from "./migrations/0003_signing_keys.ts"
import { m0004_wallet } from "./migrations/0004_wallet.ts"
import { m0005_change_feed } from "./migrations/0005_change_feed.ts"
import { m0006_delivery_claim } from "./migrations/0006_delivery_claim.ts"
import { m0007_exact_stakes } from "./migrations/0007_exact_stakes.ts"
import { m0008_fair_rounds } from "./migrations/0008_fair_rounds.ts"
import { m0009_reports_indexes } from "./migrations/0009_reports_indexes.ts"
import { m0010_round_sums } from "./migrations/0010_round_sums.ts"
import { m0011_delivery_claim_plan } from "./migrations/0011_delivery_claim_plan.ts"
import { m0012_player_rounds_index } from "./migrations/0012_player_rounds_index.ts"
import { m0013_outbox_handoff } from "./migrations/0013_outbox_handoff.ts"
import { m0014_round_sums_once } from "./migrations/0014_round_sums_once.ts"
import { m0015_audit_log } from "./migrations/0015_audit_log.ts"
import { m0016_backoffice_users } from "./migrations/0016_backoffice_users.ts"
import { m0017_round_links_callbacks } from "./migrations/0017_round_links_callbacks.ts"
import { m0018_shops } from "./migrations/0018_shops.ts"
import { m0019_free_rounds } from "./migrations/0019_free_rounds.ts"
import { m0020_session_termination } from "./migrations/0020_session_termination.ts"
import { m0021_delivery_attempts } from "./migrations/0021_delivery_attempts.ts"
import { m0022_session_rtp } from "./migrations/0022_session_rtp.ts"
import { m0023_recall_index } from "./migrations/0023_recall_index.ts"
import { m0024_round_autoplay } from "./migrations/0024_round_autoplay.ts"
import { m0025_provider_audit } from "./migrations/0025_provider_audit.ts"
import { m0026_deliveries_list_index } from "./migrations/0026_deliveries_list_index.ts"

/**
 * The schema, one migration per entry keyed `<id>_<name>`. Migrations are
 * append-only: later issues (game sessions, ledger, outbox) add entries
 * `0003_…` onwards and never edit a released one.
 */
export const migrations = {
  "0001_core": m0001_core,
  "0002_games_search": m0002_games_search,
  "0003_signing_keys": m0003_signing_keys,
  "0004_wallet": m0004_wallet,
  "0005_change_feed": m0005_change_feed,
  "0006_delivery_claim": m0006_delivery_claim,
  "0007_exact_stakes": m0007_exact_stakes,
  "0008_fair_rounds": m0008_fair_rounds,
  "0009_reports_indexes": m0009_reports_indexes,
  "0010_round_sums": m0010_round_sums,
  "0011_delivery_claim_plan": m0011_delivery_claim_plan,
  "0012_player_rounds_index": m0012_player_rounds_index,
  "0013_outbox_handoff": m0013_outbox_handoff,
  "0014_round_sums_once": m0014_round_sums_once,
  "0015_audit_log": m0015_audit_log,
  "0016_backoffice_users": m0016_backoffice_users,
  "0017_round_links_callbacks": m0017_round_links_callbacks,
  "0018_shops": m0018_shops,
  "0019_free_rounds": m0019_free_rounds,
  "0020_session_termination": m0020_session_termination,
  "0021_delivery_attempts": m0021_delivery_attempts,
  "0022_session_rtp": m0022_session_rtp,
  "0023_recall_index": m0023_recall_index,
  "0024_round_autoplay": m0024_round_autoplay,
  "0025_provider_audit": m0025_provider_audit,
  "0026_deliveries_list_index": m0026_deliveries_list_index
}

/** The id of the newest migration of this version (`0012_…` → 12). */
export const latestId: number = Math.max(...Object.keys(migrations).map((key) => Number.parseInt(key, 10)))

/** The id of the newest migration applied to the database; 0 on a database never migrated. */
export const appliedId: Effect.Effect<number, SqlError, SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient
  const [table] = yield* sql<{ readonly present: boolean }>`SELECT to_regclass('gateway_migrations') IS NOT NULL AS present`
  if (table?.present !== true) return 0
  const [row] = yield* sql<{ readonly latest: number | null }>`SELECT max(migration_id) AS latest FROM gateway_migrations`
  return row?.latest ?? 0
})

/** The advisory lock key that serialises concurrent migrators on one database. */
export const migrationLockKey = 7_246_031_001

const migrate = Migrator.make({})

/**
 * How long a migration waits for a table lock before it gives up and tries
 * again: less than PostgreSQL's `deadlock_timeout` (1 s), so that when a
 * migration and a running instance's transaction wait for each other it is
 * always the migration that steps back — never a bet of the instance it
 * upgrades (docs/operations.md, rolling upgrades).
 */
export const lockTimeoutMs = 500

/** A lock the migration did not get in time, or a deadlock it was part of: worth another try. */
const isLockConflict = (error: Migrator.MigrationError | SqlError): boolean =>
  error._tag === "SqlError" && (error.reason._tag === "LockTimeoutError" || error.reason._tag === "DeadlockError")

const entries = Object.entries(migrations).sort(([a], [b]) => Number.parseInt(a, 10) - Number.parseInt(b, 10))

/** One migration and those before it, in a transaction of its own: the advisory lock, then the lock time-out. */
const upTo = (id: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const loader = Migrator.fromRecord(Object.fromEntries(entries.filter(([key]) => Number.parseInt(key, 10) <= id)))
    return yield* sql.withTransaction(
      sql`SELECT pg_advisory_xact_lock(${sql.literal(String(migrationLockKey))})`.pipe(
        Effect.andThen(sql.unsafe(`SET LOCAL lock_timeout = '${lockTimeoutMs}ms'`)),
        Effect.andThen(migrate({ loader, table: "gateway_migrations" }))
      )
    )
  }).pipe(
    Effect.retry({ while: isLockConflict, schedule: Schedule.spaced("200 millis"), times: 150 })
  )

/**
 * Runs the pending migrations. Idempotent, and safe when several servers
 * start at once: each migration runs in a transaction that first takes a
 * transaction-scoped advisory lock, so a second server waits and then finds
 * nothing left to do. Each migration is a transaction of its own, so that
 * one never holds a table's lock while it waits for another table's, and
 * it waits at most {@link lockTimeoutMs} for a lock before it steps back and
 * tries again: instances serving during a rolling upgrade wait at most that
 * long behind it, and never deadlock with it.
 */
export const run: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient
> = Effect.gen(function*() {
  const applied = yield* appliedId
  const done: Array<readonly [id: number, name: string]> = []
  for (const [key] of entries) {
    const id = Number.parseInt(key, 10)
    if (id > applied) done.push(...(yield* upTo(id)))
  }
  return done
})
