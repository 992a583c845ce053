import { PgClient } from "@effect/sql-pg"
import { FailedDelivery } from "@gateway/domain/Delivery"
import { MerchantId } from "@gateway/domain/Merchant"
import { DeliveryQueue } from "@gateway/domain/ports/DeliveryQueue"
import { WalletEventType } from "@gateway/domain/Wallet"
import { DateTime, Deferred, Duration, Effect, Layer, Queue, Schedule, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import * as Outbox from "./db/Outbox.ts"

/** How the worker is woken besides LISTEN/NOTIFY. */
export interface DeliveryQueuePgOptions {
  /** The fallback tick that picks up retries whose time has come. Default 1 second. */
  readonly pollInterval?: Duration.Input | undefined
}

const DeliveryRow = Schema.Struct({
  id: Schema.String,
  merchant_id: MerchantId,
  type: WalletEventType,
  body: Schema.String,
  attempts: Schema.Int,
  created_at: Schema.DateTimeUtcFromDate
})
const FailedRow = Schema.Struct({
  id: Schema.String,
  merchant_id: MerchantId,
  type: WalletEventType,
  attempts: Schema.Int,
  last_error: Schema.NullOr(Schema.String),
  last_status: Schema.NullOr(Schema.Int),
  created_at: Schema.DateTimeUtcFromDate,
  failed_at: Schema.DateTimeUtcFromDate
})
const decodeDeliveries = Schema.decodeUnknownEffect(Schema.Array(DeliveryRow))
const decodeFailed = Schema.decodeUnknownEffect(Schema.Array(FailedRow))

/** A delivered message's id and who waits for its mark. */
type Mark = readonly [string, Deferred.Deferred<void>]
/** At most this many marks in one UPDATE. */
const maxMarks = 500
/** Fewer marks than this wait {@link markLinger} for more before they are written. */
const lingerBelow = 64
const markLinger = Duration.millis(10)

const maxErrorLength = 2000
const errorText = (error: string) => error.slice(0, maxErrorLength)

/**
 * {@link DeliveryQueue} on the PostgreSQL outbox `webhook_deliveries`. Claims
 * are leases taken with `FOR UPDATE SKIP LOCKED` by the function
 * `webhook_deliveries_claim` (migration 0006: its plan walks the due index
 * whatever the statistics say), so instances never claim the same message; a
 * lease that runs out (its worker died) is claimed again.
 * Outcomes apply only to messages still `pending`. A `webhook.test` ping has
 * the id `test_<uuid>`: it is no wallet transaction, and the prefix keeps it
 * apart from transaction ids. SQL failures are defects.
 */
export const make = Effect.fnUntraced(function*(options: DeliveryQueuePgOptions = {}) {
  const pg = yield* PgClient.PgClient
  const sql = yield* SqlClient

  const claim = (limit: number, leaseMs: number) =>
    sql`SELECT id, merchant_id, type, body, attempts, created_at FROM webhook_deliveries_claim(${limit}, ${leaseMs / 1000}::float8)`.pipe(
      Effect.flatMap(decodeDeliveries),
      Effect.map((rows) =>
        rows.map((row) => ({
          id: row.id,
          merchantId: row.merchant_id,
          type: row.type,
          body: row.body,
          attempts: row.attempts,
          createdAt: row.created_at
        }))
      ),
      Effect.orDie,
      Effect.withSpan("DeliveryQueue.claim")
    )

  const deliveredIds = yield* Queue.unbounded<Mark>()
  const writeMarks = (batch: ReadonlyArray<Mark>) =>
    Effect.flatMap(
      Effect.exit(sql`
        UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), lease_until = NULL
        WHERE id = ANY(${batch.map(([id]) => id)}::text[]) AND status = 'pending'`.pipe(Effect.asVoid, Effect.orDie)),
      (marked) => Effect.forEach(batch, ([, done]) => Deferred.done(done, marked), { discard: true })
    )
  // Stopping: the marks of messages already answered are written before the database goes (the writer is
  // interrupted first — finalizers run last-added first — and puts back what it held), so they are not sent again.
  yield* Effect.addFinalizer(() =>
    Effect.flatMap(Queue.clear(deliveredIds), (rest) => rest.length === 0 ? Effect.void : writeMarks(rest))
  )
  const markDelivered = Effect.flatMap(Queue.takeBetween(deliveredIds, 1, maxMarks), (first) => {
    const batch: Array<Mark> = [...first]
    return Effect.gen(function*() {
      if (batch.length < lingerBelow) {
        yield* Effect.sleep(markLinger)
        // The only taker: what the queue holds now is there to take, without waiting.
        if ((yield* Queue.size(deliveredIds)) > 0) batch.push(...yield* Queue.takeBetween(deliveredIds, 1, maxMarks - batch.length))
      }
      yield* writeMarks(batch)
    }).pipe(
      // Interrupted while lingering or writing: the marks go back for the finalizer (writing one twice is harmless).
      Effect.onInterrupt(() => Queue.offerAll(deliveredIds, batch))
    )
  })
  yield* Effect.forkScoped(Effect.forever(markDelivered))
  /**
   * Marks are written together: one UPDATE (one prepared statement, the ids as an array) for the marks of a
   * few milliseconds. A marked message's slot is free already (it stays leased until marked), so waiting
   * costs no throughput and saves the database a statement per few messages.
   */
  const delivered = (id: string) =>
    Effect.flatMap(Deferred.make<void>(), (done) =>
      Queue.offer(deliveredIds, [id, done]).pipe(Effect.andThen(Deferred.await(done))))

  const release = (ids: ReadonlyArray<string>) =>
    ids.length === 0 ? Effect.void : sql`
      UPDATE webhook_deliveries SET lease_until = NULL, attempts = greatest(attempts - 1, 0)
      WHERE id IN ${sql.in(ids)} AND status = 'pending' AND lease_until IS NOT NULL`.pipe(Effect.asVoid, Effect.orDie)

  const retryLater = (id: string, delaySeconds: number, error: string, status?: number) =>
    sql`
      UPDATE webhook_deliveries
      SET next_attempt_at = now() + make_interval(secs => ${delaySeconds}::float8), lease_until = NULL,
        last_error = ${errorText(error)}, last_status = ${status ?? null}
      WHERE id = ${id} AND status = 'pending'`.pipe(Effect.asVoid, Effect.orDie)

  const failed = (id: string, error: string, status?: number) =>
    sql`
      UPDATE webhook_deliveries
      SET status = 'failed', failed_at = now(), lease_until = NULL, last_error = ${errorText(error)},
        last_status = ${status ?? null}
      WHERE id = ${id} AND status = 'pending'`.pipe(Effect.asVoid, Effect.orDie)

  const notifications = Stream.unwrap(Effect.map(pg.listen(Outbox.channel), Stream.fromQueue)).pipe(
    Stream.tapError((error) => Effect.logWarning(`LISTEN ${Outbox.channel} failed, retrying: ${error.message}`)),
    Stream.retry(Schedule.spaced("1 second")),
    Stream.orDie
  )
  const wakeups: Stream.Stream<void> = Stream.merge(
    Stream.as(notifications, undefined),
    Stream.tick(options.pollInterval ?? "1 second")
  )

  const listFailed = (merchantId: MerchantId, limit: number) =>
    sql`
      SELECT id, merchant_id, type, attempts, last_error, last_status, created_at, failed_at
      FROM webhook_deliveries WHERE merchant_id = ${merchantId} AND status = 'failed'
      ORDER BY failed_at DESC, id LIMIT ${limit}`.pipe(
      Effect.flatMap(decodeFailed),
      Effect.map((rows) =>
        rows.map((row) =>
          new FailedDelivery({
            id: row.id,
            merchantId: row.merchant_id,
            type: row.type,
            attempts: row.attempts,
            lastError: row.last_error ?? "",
            ...(row.last_status === null ? {} : { lastStatus: row.last_status }),
            createdAt: row.created_at,
            failedAt: row.failed_at
          })
        )
      ),
      Effect.orDie,
      Effect.withSpan("DeliveryQueue.listFailed")
    )

  const redeliver = (merchantId: MerchantId, id: string) =>
    sql`
      UPDATE webhook_deliveries
      SET status = 'pending', next_attempt_at = now(), attempts = 0, lease_until = NULL, failed_at = NULL
      WHERE id = ${id} AND merchant_id = ${merchantId} AND status = 'failed'
      RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie, Effect.withSpan("DeliveryQueue.redeliver"))

  const enqueueTest = (merchantId: MerchantId) =>
    Effect.gen(function*() {
      const id = `test_${randomUUID()}`
      const timestamp = DateTime.formatIso(yield* DateTime.now)
      const body = JSON.stringify({ type: "webhook.test", timestamp, data: { merchantId } })
      yield* Outbox.enqueue(sql, { id, merchantId, type: "webhook.test", body })
      return id
    }).pipe(Effect.orDie, Effect.withSpan("DeliveryQueue.enqueueTest"))

  return DeliveryQueue.of({ claim, release, delivered, retryLater, failed, wakeups, listFailed, redeliver, enqueueTest })
})

/** The queue on the database of the `PgClient` (LISTEN/NOTIFY needs PostgreSQL itself). */
export const layer = (
  options: DeliveryQueuePgOptions = {}
): Layer.Layer<DeliveryQueue, never, PgClient.PgClient | SqlClient> => Layer.effect(DeliveryQueue, make(options))
