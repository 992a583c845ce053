import { answerWithin } from "@gateway/domain/Deadline"
import { MetricsRefresh } from "@gateway/domain/ports/MetricsRefresh"
import { Effect, Layer, Metric, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as Database from "./db/Database.ts"

/** How options bound the reads. */
export interface MetricsRefreshPgOptions {
  /** The pool size reported as `gateway_db_pool_max_connections` (default {@link Database.defaultMaxConnections}). */
  readonly maxConnections?: number | undefined
  /** Scrapes within this time of a read reuse it (default 5 s): the query runs at most once in it. */
  readonly minInterval?: `${number} seconds` | undefined
}

const pending = Metric.gauge("gateway_outbox_pending", {
  description: "Webhook messages not yet delivered nor failed: due now or waiting for a retry"
})
const oldestAge = Metric.gauge("gateway_outbox_oldest_pending_age_seconds", {
  description: "Seconds since the oldest of those messages was queued; 0 when none waits"
})
const connection = (state: string) =>
  Metric.gauge("gateway_db_connections", {
    description: "This instance's database connections by state, from pg_stat_activity (active includes the scrape's own query)",
    attributes: { state }
  })
const active = connection("active")
const idle = connection("idle")
const idleInTransaction = connection("idle_in_transaction")
const poolMax = Metric.gauge("gateway_db_pool_max_connections", {
  description: "The most connections this instance's pool opens"
})

const Row = Schema.Struct({
  pending: Schema.Int,
  oldest_seconds: Schema.Finite,
  active: Schema.Int,
  idle: Schema.Int,
  idle_in_transaction: Schema.Int
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

/**
 * {@link MetricsRefresh} on PostgreSQL: one query reads the outbox's depth
 * and the age of its oldest pending message (on the partial index of
 * pending messages) and this instance's connections in `pg_stat_activity`
 * (its `application_name`, {@link Database.applicationName}, is unique to
 * the process). Concurrent scrapes share a read, and a read is reused for
 * `minInterval`; a read that fails or takes over 2 s leaves the gauges as
 * they were, with a warning. A scrape never waits longer: a read still
 * running after 2 s (a frozen database) is interrupted in the background
 * ({@link answerWithin}).
 */
export const make = Effect.fnUntraced(function*(options: MetricsRefreshPgOptions = {}) {
  const sql = yield* SqlClient
  yield* Metric.update(poolMax, options.maxConnections ?? Database.defaultMaxConnections)
  const read = sql`
    WITH outbox AS (
      SELECT count(*)::int AS pending,
        COALESCE(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_seconds
      FROM webhook_deliveries WHERE status = 'pending'
    ), connections AS (
      SELECT count(*) FILTER (WHERE state = 'active')::int AS active,
        count(*) FILTER (WHERE state = 'idle')::int AS idle,
        count(*) FILTER (WHERE state LIKE 'idle in transaction%')::int AS idle_in_transaction
      FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = current_setting('application_name')
    )
    SELECT * FROM outbox, connections`.pipe(
    Effect.flatMap(decodeRows),
    Effect.flatMap(([row]) =>
      row === undefined ? Effect.void : Effect.all([
        Metric.update(pending, row.pending),
        Metric.update(oldestAge, row.oldest_seconds),
        Metric.update(active, row.active),
        Metric.update(idle, row.idle),
        Metric.update(idleInTransaction, row.idle_in_transaction)
      ], { discard: true })
    ),
    Effect.catchCause((cause) => Effect.logWarning("reading the outbox and connection gauges failed", cause)),
    answerWithin(
      "2 seconds",
      () => Effect.logWarning("reading the outbox and connection gauges took over 2 s: the last values are shown")
    )
  )
  return { refresh: yield* Effect.cachedWithTTL(read, options.minInterval ?? "5 seconds") }
})

/** The refresh of the database's gauges, for the app to give the HTTP side. */
export const layer = (options: MetricsRefreshPgOptions = {}): Layer.Layer<never, never, SqlClient> =>
  Layer.effect(MetricsRefresh, make(options))
