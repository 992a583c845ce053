import { DateTime, Effect, Layer, PubSub, Stream } from "effect"
import { type Delivery, FailedDelivery, ListedDelivery } from "../src/Delivery.ts"
import type { AttemptRecord } from "../src/DeliveryAttempt.ts"
import type { MerchantId } from "../src/Merchant.ts"
import { DeliveryQueue } from "../src/ports/DeliveryQueue.ts"
import { destinationOf, type MessageType } from "../src/Callback.ts"

/** A row of the in-memory outbox. */
export interface QueueRow {
  readonly id: string
  readonly merchantId: MerchantId
  readonly type: MessageType
  readonly body: string
  status: "queued" | "delivered" | "failed"
  attempts: number
  dueAt: number
  leaseUntil: number
  lastError?: string | undefined
  lastStatus?: number | undefined
  delays: Array<number>
  readonly createdAt: DateTime.Utc
  failedAt?: DateTime.Utc | undefined
  deliveredAt?: DateTime.Utc | undefined
  /** The recorded attempts, oldest first. */
  log?: Array<AttemptRecord> | undefined
}

/** The in-memory outbox with its rows exposed, and a way to queue messages (waking the workers). */
export interface MemoryQueue {
  readonly rows: Map<string, QueueRow>
  readonly service: DeliveryQueue["Service"]
  readonly enqueue: (message: { id: string; merchantId: MerchantId; type: MessageType; body: string }) => Effect.Effect<void>
}

/** The DeliveryQueue port in memory: leased claims, due times in wall-clock ms, wakeups through a PubSub. */
export const makeMemoryQueue: Effect.Effect<MemoryQueue> = Effect.gen(function*() {
  const rows = new Map<string, QueueRow>()
  const pubsub = yield* PubSub.unbounded<void>()
  let tests = 0
  const wake = Effect.asVoid(PubSub.publish(pubsub, undefined))
  const enqueue: MemoryQueue["enqueue"] = (message) =>
    Effect.andThen(
      Effect.sync(() => {
        rows.set(message.id, {
          ...message,
          status: "queued",
          attempts: 0,
          dueAt: 0,
          leaseUntil: 0,
          delays: [],
          createdAt: DateTime.makeUnsafe(Date.now())
        })
      }),
      wake
    )
  const toDelivery = (row: QueueRow): Delivery => ({
    id: row.id,
    merchantId: row.merchantId,
    type: row.type,
    body: row.body,
    attempts: row.attempts,
    createdAt: row.createdAt
  })
  const listed = (r: QueueRow) => {
    const status = r.status === "queued" ? "pending" as const : r.status
    return new ListedDelivery({
      id: r.id,
      merchantId: r.merchantId,
      type: r.type,
      status,
      attempts: r.attempts,
      ...(r.lastError === undefined ? {} : { lastError: r.lastError }),
      ...(r.lastStatus === undefined ? {} : { lastStatus: r.lastStatus }),
      createdAt: r.createdAt,
      ...(status === "pending" ? { nextAttemptAt: DateTime.makeUnsafe(r.dueAt) } : {}),
      ...(r.deliveredAt === undefined || status !== "delivered" ? {} : { deliveredAt: r.deliveredAt }),
      ...(r.failedAt === undefined || status !== "failed" ? {} : { failedAt: r.failedAt })
    })
  }
  const service = DeliveryQueue.of({
    claim: (limit, leaseMs) =>
      Effect.sync(() => {
        const now = Date.now()
        const due = [...rows.values()]
          .filter((r) => r.status === "queued" && r.dueAt <= now && r.leaseUntil <= now)
          .slice(0, limit)
        for (const row of due) {
          row.leaseUntil = now + leaseMs
          row.attempts++
        }
        return due.map(toDelivery)
      }),
    release: (ids) =>
      Effect.sync(() => {
        for (const id of ids) {
          const row = rows.get(id)
          if (row !== undefined && row.status === "queued" && row.leaseUntil > 0) {
            Object.assign(row, { leaseUntil: 0, attempts: Math.max(0, row.attempts - 1) })
          }
        }
      }),
    delivered: (id, attempt) =>
      Effect.sync(() => {
        const row = rows.get(id)
        if (row !== undefined && attempt !== undefined) row.log = [...(row.log ?? []), attempt]
        if (row !== undefined) Object.assign(row, { status: "delivered", leaseUntil: 0, deliveredAt: DateTime.makeUnsafe(Date.now()) })
      }),
    retryLater: (id, delaySeconds, error, status, attempt) =>
      Effect.sync(() => {
        const row = rows.get(id)
        if (row === undefined) return
        if (attempt !== undefined) row.log = [...(row.log ?? []), attempt]
        row.delays.push(delaySeconds)
        Object.assign(row, { dueAt: Date.now() + delaySeconds * 1000, leaseUntil: 0, lastError: error, lastStatus: status })
      }),
    postpone: (id, delaySeconds, error) =>
      Effect.sync(() => {
        const row = rows.get(id)
        if (row === undefined || row.status !== "queued") return
        Object.assign(row, {
          dueAt: Date.now() + delaySeconds * 1000,
          leaseUntil: 0,
          attempts: Math.max(0, row.attempts - 1),
          lastError: error
        })
      }),
    hurry: (merchantId, options = {}) =>
      Effect.suspend(() => {
        const now = Date.now()
        const waiting = [...rows.values()]
          .filter((r) =>
            r.merchantId === merchantId && r.status === "queued" && r.leaseUntil <= now &&
            r.dueAt > now + (options.waitingMoreThanSeconds ?? 0) * 1000 &&
            (options.destination === undefined || destinationOf(r.type) === options.destination)
          )
          .sort((a, b) => a.dueAt - b.dueAt)
          .slice(0, options.limit ?? Infinity)
        for (const row of waiting) {
          row.dueAt = now
          if (options.probe === true) row.attempts = Math.max(0, row.attempts - 1)
        }
        return Effect.as(wake, waiting.map((row) => row.id))
      }),
    failed: (id, error, status, attempt) =>
      Effect.sync(() => {
        const row = rows.get(id)
        if (row === undefined) return
        if (attempt !== undefined) row.log = [...(row.log ?? []), attempt]
        Object.assign(row, {
          status: "failed",
          leaseUntil: 0,
          lastError: error,
          lastStatus: status,
          failedAt: DateTime.makeUnsafe(Date.now())
        })
      }),
    wakeups: Stream.fromPubSub(pubsub),
    // Nothing is queued leased in memory: every message is claimed.
    takeHanded: () => Effect.succeed([]),
    handed: Stream.never,
    listFailed: (merchantId, limit) =>
      Effect.sync(() =>
        [...rows.values()]
          .filter((r) => r.status === "failed" && r.merchantId === merchantId)
          .slice(0, limit)
          .map((r) =>
            new FailedDelivery({
              id: r.id,
              merchantId: r.merchantId,
              type: r.type,
              attempts: r.attempts,
              lastError: r.lastError ?? "",
              ...(r.lastStatus === undefined ? {} : { lastStatus: r.lastStatus }),
              createdAt: r.createdAt,
              failedAt: r.failedAt ?? r.createdAt
            })
          )
      ),
    list: (merchantId, status, limit) =>
      Effect.sync(() =>
        [...rows.values()]
          .filter((r) => r.merchantId === merchantId && (status === undefined || listed(r).status === status))
          .reverse()
          .slice(0, limit)
          .map(listed)
      ),
    find: (merchantId, id) =>
      Effect.sync(() => {
        const row = rows.get(id)
        return row === undefined || row.merchantId !== merchantId
          ? undefined
          : { listed: listed(row), body: row.body, attempts: row.log ?? [] }
      }),
    startTest: (merchantId, leaseMs) =>
      Effect.sync(() => {
        const id = `00000000-0000-4000-9000-${String(++tests).padStart(12, "0")}`
        const body = JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: { merchantId } })
        const row: QueueRow = {
          id, merchantId, type: "webhook.test", body, status: "queued", attempts: 1, dueAt: 0,
          leaseUntil: Date.now() + leaseMs, delays: [], createdAt: DateTime.makeUnsafe(Date.now())
        }
        rows.set(id, row)
        return toDelivery(row)
      }),
    redeliver: (merchantId, id) =>
      Effect.suspend(() => {
        const row = rows.get(id)
        if (row === undefined || row.merchantId !== merchantId || row.status !== "failed") return Effect.succeed(false)
        Object.assign(row, { status: "queued", dueAt: 0, attempts: 0 })
        return Effect.as(wake, true)
      }),
    enqueueTest: (merchantId) =>
      Effect.suspend(() => {
        const id = `00000000-0000-4000-9000-${String(++tests).padStart(12, "0")}`
        const body = JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: { merchantId } })
        return Effect.as(enqueue({ id, merchantId, type: "webhook.test", body }), id)
      })
  })
  return { rows, service, enqueue }
})

/** {@link makeMemoryQueue} as a layer, with the handle passed to `onMake`. */
export const deliveryQueue = (onMake: (queue: MemoryQueue) => void): Layer.Layer<DeliveryQueue> =>
  Layer.effect(DeliveryQueue, Effect.map(makeMemoryQueue, (q) => (onMake(q), q.service)))
