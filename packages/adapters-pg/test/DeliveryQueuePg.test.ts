import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { MerchantId } from "@gateway/domain/Merchant"
import { DeliveryQueue } from "@gateway/domain/ports/DeliveryQueue"
import { Array as Arr, Config, Effect, Ref, Stream } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import * as DeliveryQueuePg from "../src/DeliveryQueuePg.ts"
import { merchant, walletLayer } from "./walletFixtures.ts"

/** Empties the outbox and queues `count` due messages of a new merchant; their ids. */
const seed = (count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const m = yield* merchant
    yield* sql`DELETE FROM webhook_deliveries`
    const ids = Array.from({ length: count }, () => randomUUID())
    const rows = ids.map((id) => ({ id, merchant_id: m.id, type: "transaction.credit", body: `{"id":"${id}"}` }))
    if (Arr.isArrayNonEmpty(rows)) yield* sql`INSERT INTO webhook_deliveries ${sql.insert(rows)}`
    return { merchantId: m.id, ids }
  })

const row = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const [found] = yield* sql<{
      readonly status: string
      readonly attempts: number
      readonly last_error: string | null
      readonly last_status: number | null
      readonly leased: boolean
    }>`SELECT status, attempts, last_error, last_status, lease_until IS NOT NULL AS leased
      FROM webhook_deliveries WHERE id = ${id}`
    return found
  })

/** A connection of its own on this file's database, as another server instance would have. */
const otherConnection = Effect.gen(function*() {
  const sql = yield* SqlClient
  const [db] = yield* sql<{ readonly name: string }>`SELECT current_database() AS name`
  const url = yield* Config.Redacted("DATABASE_URL")
  return yield* PgClient.make({ url, database: db?.name ?? "", maxConnections: 1 }).pipe(Effect.provide(Reactivity.layer))
})

describe("DeliveryQueuePg", () => {
  layer(walletLayer, { excludeTestServices: true })((it) => {
    it.effect("hurry: a merchant's waiting messages are due at once; a probe's attempt is not counted", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const { merchantId, ids } = yield* seed(3)
        const claimed = yield* queue.claim(10, 60_000)
        assert.strictEqual(claimed.length, 3)
        for (const id of ids) yield* queue.retryLater(id, 300, "the operator answered HTTP 503", 503)
        assert.deepStrictEqual(yield* queue.claim(10, 60_000), [], "nothing due for 5 min")
        const [probed, ...others] = yield* queue.hurry(merchantId, { limit: 1, probe: true })
        assert.deepStrictEqual(others, [])
        const [probe] = yield* queue.claim(10, 60_000)
        assert.strictEqual(probe?.id, probed)
        assert.strictEqual(probe?.attempts, 1, "the probe's attempt is not counted")
        yield* queue.delivered(probed ?? "")
        const rest = yield* queue.hurry(merchantId)
        assert.sameMembers([...rest], ids.filter((id) => id !== probed))
        const due = yield* queue.claim(10, 60_000)
        assert.sameMembers(due.map((d) => d.id), [...rest])
        assert.deepStrictEqual(due.map((d) => d.attempts), [2, 2])
        assert.deepStrictEqual(yield* queue.hurry(merchantId), [], "leased messages are left alone")
      }))

    it.effect("keeps each failed attempt in the statement that schedules its retry, at most 20 a message, and the delivered answer with its mark", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const sql = yield* SqlClient
        const { merchantId, ids } = yield* seed(1)
        const id = ids[0] ?? ""
        const attempt = (n: number) => ({ at: 1_795_000_000_000 + n * 1000, durationMs: 12, url: "https://op.example/w?t=s", status: 503, headers: { "retry-after": "5" }, body: `busy ${n}` })
        for (let n = 1; n <= 25; n++) {
          yield* sql`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = ${id}`
          const [claimed] = yield* queue.claim(1, 60_000)
          assert.strictEqual(claimed?.attempts, n)
          yield* queue.retryLater(id, 0, "the operator answered HTTP 503", 503, attempt(n))
        }
        const [kept] = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = ${id}`
        assert.strictEqual(kept?.n, 20)
        yield* sql`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = ${id}`
        yield* queue.claim(1, 60_000)
        yield* queue.delivered(id, { at: 1_795_000_100_000, durationMs: 7, url: "https://op.example/w", status: 200, headers: {}, body: "{}" })
        const found = yield* queue.find(merchantId, id)
        assert.strictEqual(found?.listed.status, "delivered")
        assert.strictEqual(found?.attempts.length, 21)
        assert.deepStrictEqual(found?.attempts.map((a) => a.body).slice(17), ["busy 18", "busy 19", "busy 25", "{}"], "the 20th slot holds the latest failure")
        assert.deepStrictEqual(found?.attempts[0], attempt(1))
        assert.strictEqual(yield* queue.find(MerchantId.make(merchantId + 1), id), undefined, "another merchant's message is not found")
      }))

    it.effect("hurry of one destination leaves the other's waiting messages on their schedule (wallet vs callbackUrl)", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const sql = yield* SqlClient
        const { merchantId, ids } = yield* seed(2)
        const [wallet = "", callback = ""] = ids
        yield* sql`UPDATE webhook_deliveries SET type = 'round.settled' WHERE id = ${callback}`
        yield* queue.claim(10, 60_000)
        for (const id of ids) yield* queue.retryLater(id, 300, "the operator answered HTTP 503", 503)
        assert.deepStrictEqual(yield* queue.hurry(merchantId, { destination: "wallet" }), [wallet])
        assert.deepStrictEqual(yield* queue.hurry(merchantId, { destination: "wallet" }), [], "already due")
        assert.deepStrictEqual(yield* queue.hurry(merchantId, { destination: "callback" }), [callback])
      }))

    it.effect("two concurrent claimers never get the same message, and together get all of them", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const { ids } = yield* seed(200)
        const drain = Effect.gen(function*() {
          const got: Array<string> = []
          while (true) {
            const batch = yield* queue.claim(10, 60_000)
            if (batch.length === 0) return got
            for (const delivery of batch) {
              assert.strictEqual(delivery.attempts, 1)
              got.push(delivery.id)
            }
          }
        })
        const [a, b] = yield* Effect.all([drain, drain], { concurrency: "unbounded" })
        const inB = new Set(b)
        assert.deepStrictEqual(a.filter((id) => inB.has(id)), [])
        assert.deepStrictEqual([...a, ...b].sort(), [...ids].sort())
        assert.isAbove(a.length, 0)
        assert.isAbove(b.length, 0)
      }))

    it.effect("two instances draining 3,000 messages with their own pools, each claim marked as it goes, never share one", () =>
      Effect.gen(function*() {
        const here = yield* DeliveryQueue
        const there = yield* DeliveryQueuePg.make().pipe(Effect.provideService(SqlClient, yield* otherConnection))
        const { ids } = yield* seed(3000)
        const drain = (queue: typeof here) =>
          Effect.gen(function*() {
            const got: Array<string> = []
            while (true) {
              const batch = yield* queue.claim(16, 60_000)
              if (batch.length === 0) return got
              yield* Effect.forEach(batch, (delivery) => queue.delivered(delivery.id), { concurrency: "unbounded" })
              got.push(...batch.map((delivery) => delivery.id))
            }
          })
        const all = (yield* Effect.all([drain(here), drain(here), drain(there), drain(there)], { concurrency: "unbounded" })).flat()
        assert.strictEqual(all.length - new Set(all).size, 0, "messages claimed twice")
        assert.deepStrictEqual(all.toSorted(), [...ids].sort())
      }).pipe(Effect.scoped))

    it.effect("a claim on a freshly queued backlog of 20,000 reads a few index entries, not the whole backlog, whatever the statistics say", () =>
      Effect.forEach(["statistics of the empty table before", "fresh statistics"] as const, (statistics) =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          const queue = yield* DeliveryQueue
          const m = yield* merchant
          yield* sql`DELETE FROM webhook_deliveries`
          // Earlier tests' dead rows would be visited once; the statistics now describe an empty table.
          yield* sql`VACUUM webhook_deliveries`
          // One statement: the statistics still describe the (empty) table of before, unless analyzed below.
          yield* sql`
            INSERT INTO webhook_deliveries (id, merchant_id, type, body)
            SELECT 'bulk-' || g, ${m.id}, 'transaction.credit', '{}' FROM generate_series(1, 20000) g`
          // As autovacuum's analyze does once the backlog is queued: with its size known, the planner of 0006
          // hashed every pending row on each claim to join them to the few it had locked.
          if (statistics === "fresh statistics") yield* sql`ANALYZE webhook_deliveries`
          const read = sql<{ readonly n: string }>`
            SELECT pg_stat_force_next_flush(), coalesce(sum(idx_tup_read), 0)::text AS n
            FROM pg_stat_user_indexes WHERE relname = 'webhook_deliveries'`.pipe(
            Effect.map(([r]) => Number(r?.n ?? 0))
          )
          yield* sql`SELECT pg_stat_force_next_flush()`
          const before = yield* read
          const batch = yield* queue.claim(16, 60_000)
          yield* sql`SELECT pg_stat_force_next_flush()`
          const after = yield* read
          assert.strictEqual(batch.length, 16)
          assert.isBelow(after - before, 1000, `index entries read by one claim, ${statistics}: ${after - before}`)
          yield* sql`DELETE FROM webhook_deliveries`
        }), { discard: true }))

    it.effect("released claims are due again at once, their attempt uncounted", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const { ids } = yield* seed(5)
        const first = yield* queue.claim(5, 60_000)
        assert.strictEqual(first.length, 5)
        assert.strictEqual((yield* queue.claim(5, 60_000)).length, 0)
        yield* queue.release(first.map((d) => d.id))
        const again = yield* queue.claim(5, 60_000)
        assert.sameMembers(again.map((d) => d.id), ids)
        assert.isTrue(again.every((d) => d.attempts === 1))
      }))

    it.effect("a lease that runs out is claimed again with its attempt counted", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const { ids } = yield* seed(1)
        const [first] = yield* queue.claim(5, 200)
        assert.strictEqual(first?.id, ids[0])
        assert.strictEqual(first?.attempts, 1)
        assert.strictEqual(first?.body, `{"id":"${ids[0]}"}`)
        assert.deepStrictEqual(yield* queue.claim(5, 200), [])
        yield* Effect.sleep("300 millis")
        const [again] = yield* queue.claim(5, 60_000)
        assert.strictEqual(again?.id, ids[0])
        assert.strictEqual(again?.attempts, 2)
      }))

    it.effect("retryLater releases the lease and hides the message until its time; delivered is final", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const { ids: [id = ""] } = yield* seed(1)
        yield* queue.claim(5, 60_000)
        yield* queue.retryLater(id, 1, "HTTP 503", 503)
        assert.deepStrictEqual(yield* row(id), {
          status: "pending", attempts: 1, last_error: "HTTP 503", last_status: 503, leased: false
        })
        assert.deepStrictEqual(yield* queue.claim(5, 60_000), [])
        yield* Effect.sleep("1100 millis")
        const [due] = yield* queue.claim(5, 60_000)
        assert.strictEqual(due?.id, id)
        assert.strictEqual(due?.attempts, 2)
        yield* queue.delivered(id)
        yield* queue.retryLater(id, 0, "late", 500)
        yield* queue.failed(id, "late", 500)
        assert.strictEqual((yield* row(id))?.status, "delivered")
        assert.deepStrictEqual(yield* queue.claim(5, 60_000), [])
      }))

    it.effect("marks of answered messages still waiting to be written when the queue stops are written, not lost", () =>
      Effect.gen(function*() {
        const { ids } = yield* seed(3)
        yield* Effect.scoped(Effect.gen(function*() {
          const stopping = yield* DeliveryQueuePg.make()
          yield* stopping.claim(5, 60_000)
          // Answered just before the stop: their marks are lingering for company when the scope closes.
          for (const id of ids) yield* Effect.forkDetach(stopping.delivered(id))
          yield* Effect.sleep("3 millis") // taken by the writer, inside its 10 ms wait for more
        }))
        for (const id of ids) assert.strictEqual((yield* row(id))?.status, "delivered", id)
      }))

    it.effect("failed messages are listed per merchant and redelivery makes them due again", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const { merchantId, ids: [id = ""] } = yield* seed(1)
        const other = yield* merchant
        yield* queue.claim(5, 60_000)
        yield* queue.failed(id, "HTTP 500 after 10 attempts", 500)
        assert.deepStrictEqual(yield* queue.claim(5, 60_000), [])
        const [listed] = yield* queue.listFailed(merchantId, 10)
        assert.strictEqual(listed?.id, id)
        assert.strictEqual(listed?.type, "transaction.credit")
        assert.strictEqual(listed?.lastError, "HTTP 500 after 10 attempts")
        assert.strictEqual(listed?.lastStatus, 500)
        assert.strictEqual(listed?.attempts, 1)
        assert.deepStrictEqual(yield* queue.listFailed(other.id, 10), [])

        assert.isFalse(yield* queue.redeliver(other.id, id))
        assert.isFalse(yield* queue.redeliver(merchantId, "no-such-id"))
        assert.isTrue(yield* queue.redeliver(merchantId, id))
        assert.isFalse(yield* queue.redeliver(merchantId, id))
        assert.deepStrictEqual(yield* queue.listFailed(merchantId, 10), [])
        const [due] = yield* queue.claim(5, 60_000)
        assert.strictEqual(due?.id, id)
        assert.strictEqual(due?.attempts, 1)
      }))

    it.effect("a merchant's messages are listed by any status (pending, delivered, failed) or all, with their dates", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const { merchantId, ids: [sent = "", gaveUp = "", waiting = ""] } = yield* seed(3)
        const other = yield* merchant
        yield* queue.claim(5, 60_000)
        yield* queue.delivered(sent)
        yield* queue.failed(gaveUp, "the operator answered HTTP 500", 500)
        yield* queue.retryLater(waiting, 60, "no answer within 5000 ms")
        const byStatus = (status?: "pending" | "delivered" | "failed") =>
          Effect.map(queue.list(merchantId, status, 10), (rows) => rows.map((r) => [r.id, r.status]))
        assert.deepStrictEqual(yield* byStatus("delivered"), [[sent, "delivered"]])
        assert.deepStrictEqual(yield* byStatus("failed"), [[gaveUp, "failed"]])
        assert.deepStrictEqual(yield* byStatus("pending"), [[waiting, "pending"]])
        assert.sameDeepMembers(yield* byStatus(), [[sent, "delivered"], [gaveUp, "failed"], [waiting, "pending"]])
        assert.lengthOf(yield* queue.list(merchantId, undefined, 2), 2)
        assert.deepStrictEqual(yield* queue.list(other.id, undefined, 10), [])
        const [delivered] = yield* queue.list(merchantId, "delivered", 10)
        const [failed] = yield* queue.list(merchantId, "failed", 10)
        const [pending] = yield* queue.list(merchantId, "pending", 10)
        assert.isDefined(delivered?.deliveredAt)
        assert.isUndefined(delivered?.failedAt)
        assert.include(failed, { lastError: "the operator answered HTTP 500", lastStatus: 500, attempts: 1 })
        assert.isDefined(failed?.failedAt)
        assert.include(pending, { lastError: "no answer within 5000 ms", attempts: 1 })
        assert.isAbove(Number(pending?.nextAttemptAt?.epochMilliseconds), Date.now() + 30_000)
      }))

    it.effect("a merchant's list reads its newest messages, not the whole outbox of every merchant (migration 0026)", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const queue = yield* DeliveryQueue
        const { merchantId: small, ids } = yield* seed(3)
        const big = yield* merchant
        // Another merchant's 20,000 delivered messages, as months of bets leave in the outbox
        yield* sql`
          INSERT INTO webhook_deliveries (id, merchant_id, type, body, status, delivered_at, created_at)
          SELECT 'old-' || g, ${big.id}, 'transaction.credit', '{}', 'delivered', now(), now() - g * interval '1 second'
          FROM generate_series(1, 20000) g`
        yield* sql`ANALYZE webhook_deliveries`
        /** The table's rows a statement read, by scan or through an index. */
        const read = sql<{ readonly n: string }>`
          SELECT pg_stat_force_next_flush(), (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS n
          FROM pg_stat_user_tables WHERE relname = 'webhook_deliveries'`.pipe(Effect.map(([r]) => Number(r?.n ?? 0)))
        const rowsRead = <A>(list: Effect.Effect<A>) =>
          Effect.gen(function*() {
            yield* sql`SELECT pg_stat_force_next_flush()`
            const before = yield* read
            const listed = yield* list
            yield* sql`SELECT pg_stat_force_next_flush()`
            return { listed, rows: (yield* read) - before }
          })
        const mine = yield* rowsRead(queue.list(small, undefined, 50))
        assert.sameMembers(mine.listed.map((d) => d.id), ids)
        assert.isBelow(mine.rows, 100, "rows read to list the small merchant's 3 messages")
        for (const status of [undefined, "delivered"] as const) {
          const newest = yield* rowsRead(queue.list(big.id, status, 50))
          assert.deepStrictEqual(newest.listed.map((d) => d.id), Array.from({ length: 50 }, (_, i) => `old-${i + 1}`))
          assert.isBelow(newest.rows, 1000, `rows read to list the big merchant's newest 50 (${status ?? "any status"})`)
        }
        yield* sql`DELETE FROM webhook_deliveries`
      }))

    it.effect("enqueueTest queues a webhook.test ping with its own id form", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const { merchantId } = yield* seed(0)
        const id = yield* queue.enqueueTest(merchantId)
        assert.match(id, /^test_[0-9a-f-]{36}$/)
        const [ping] = yield* queue.claim(5, 60_000)
        assert.strictEqual(ping?.id, id)
        assert.strictEqual(ping?.type, "webhook.test")
        const body = JSON.parse(ping?.body ?? "{}")
        assert.deepStrictEqual(body, { type: "webhook.test", timestamp: body.timestamp, data: { merchantId } })
        assert.isTrue(Math.abs(Date.parse(body.timestamp) - Date.now()) < 60_000)
      }))

    it.effect("wakeups: an insert or a redelivery on another connection wakes the worker within a second; claims do not", () =>
      Effect.gen(function*() {
        const queue = yield* DeliveryQueue
        const { merchantId } = yield* seed(0)
        const other = yield* otherConnection
        const count = yield* Ref.make(0)
        yield* queue.wakeups.pipe(Stream.runForEach(() => Ref.update(count, (n) => n + 1)), Effect.forkScoped)
        yield* Effect.sleep("500 millis")
        const woken = (before: number) =>
          Effect.gen(function*() {
            const deadline = Date.now() + 1000
            while (Date.now() < deadline) {
              const now = yield* Ref.get(count)
              if (now > before) return now
              yield* Effect.sleep("20 millis")
            }
            return before
          })

        const idle = yield* Ref.get(count)
        const id = randomUUID()
        yield* other`INSERT INTO webhook_deliveries (id, merchant_id, type, body)
          VALUES (${id}, ${merchantId}, 'transaction.refund', '{}')`
        const afterInsert = yield* woken(idle)
        assert.isAbove(afterInsert, idle)

        yield* queue.claim(5, 60_000)
        yield* queue.failed(id, "gave up")
        yield* Effect.sleep("300 millis")
        assert.strictEqual(yield* Ref.get(count), afterInsert)

        assert.isTrue(yield* queue.redeliver(merchantId, id))
        assert.isAbove(yield* woken(afterInsert), afterInsert)
      }).pipe(Effect.scoped))
  })
})
