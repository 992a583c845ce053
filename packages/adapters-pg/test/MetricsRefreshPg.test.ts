import { assert, describe, layer } from "@effect/vitest"
import { Clock, Deferred, Effect, Fiber, Metric } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import * as MetricsRefreshPg from "../src/MetricsRefreshPg.ts"
import { merchant, walletLayer } from "./walletFixtures.ts"

/** The value of the gauge `id` with `labels`, as a scrape would render it. */
const gauge = (id: string, labels: Record<string, string> = {}) =>
  Effect.map(Metric.snapshot, (metrics) => {
    const found = metrics.find((m) =>
      m.id === id && m.type === "Gauge" &&
      Object.entries(labels).every(([key, value]) => m.attributes?.[key] === value)
    )
    return found?.type === "Gauge" ? Number(found.state.value) : undefined
  })

/** Empties the outbox, then queues `count` messages created `ageSeconds` ago with `status`. */
const queue = (count: number, ageSeconds: number, status: "pending" | "delivered" | "failed") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const m = yield* merchant
    for (let i = 0; i < count; i++) {
      yield* sql`INSERT INTO webhook_deliveries (id, merchant_id, type, body, status, created_at)
        VALUES (${randomUUID()}, ${m.id}, 'transaction.credit', '{}', ${status}, now() - make_interval(secs => ${ageSeconds}))`
    }
  })

describe("MetricsRefreshPg", () => {
  layer(walletLayer, { excludeTestServices: true })((it) => {
    it.effect("reads the outbox's depth, its oldest pending message's age and this pool's connections, at most once in the interval", () =>
      Effect.gen(function*() {
        yield* (yield* SqlClient)`DELETE FROM webhook_deliveries`
        yield* queue(3, 90, "pending")
        yield* queue(2, 3600, "delivered")
        yield* queue(1, 7200, "failed")
        const { refresh } = yield* MetricsRefreshPg.make({ maxConnections: 7, minInterval: "5 seconds" })
        yield* refresh
        assert.strictEqual(yield* gauge("gateway_outbox_pending"), 3)
        const age = (yield* gauge("gateway_outbox_oldest_pending_age_seconds")) ?? 0
        assert.isTrue(age >= 90 && age < 200, String(age))
        assert.isAtLeast((yield* gauge("gateway_db_connections", { state: "active" })) ?? 0, 1)
        assert.strictEqual(yield* gauge("gateway_db_pool_max_connections"), 7)

        yield* queue(2, 10, "pending")
        yield* refresh
        assert.strictEqual(yield* gauge("gateway_outbox_pending"), 3, "a scrape within 5 s reuses the last read")
        const { refresh: later } = yield* MetricsRefreshPg.make({ minInterval: "0 seconds" })
        yield* later
        assert.strictEqual(yield* gauge("gateway_outbox_pending"), 5)

        yield* (yield* SqlClient)`DELETE FROM webhook_deliveries`
        yield* later
        assert.deepStrictEqual(
          [yield* gauge("gateway_outbox_pending"), yield* gauge("gateway_outbox_oldest_pending_age_seconds")],
          [0, 0]
        )
      }))

    it.effect("a read the database does not answer in 2 s leaves the last values, and the scrape does not wait for it", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        yield* sql`DELETE FROM webhook_deliveries`
        yield* queue(4, 30, "pending")
        const { refresh } = yield* MetricsRefreshPg.make({ minInterval: "0 seconds" })
        yield* refresh
        assert.strictEqual(yield* gauge("gateway_outbox_pending"), 4)

        const locked = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const holder = yield* sql.withTransaction(
          sql`LOCK TABLE webhook_deliveries IN ACCESS EXCLUSIVE MODE`.pipe(
            Effect.andThen(Deferred.succeed(locked, undefined)),
            Effect.andThen(Deferred.await(release))
          )
        ).pipe(Effect.forkChild)
        yield* Deferred.await(locked)
        const started = yield* Clock.currentTimeMillis
        yield* refresh
        const waited = (yield* Clock.currentTimeMillis) - started
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        assert.isTrue(waited >= 1900 && waited < 3000, `the scrape waited ${waited} ms`)
        assert.strictEqual(yield* gauge("gateway_outbox_pending"), 4)
      }), { timeout: 15_000 })
  })
})
