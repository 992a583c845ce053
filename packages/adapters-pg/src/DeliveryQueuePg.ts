import { PgClient } from "@effect/sql-pg"
import { CallbackEventType, isMessageType, MessageType } from "@gateway/domain/Callback"
import { type Delivery, DeliveryStatus, FailedDelivery, ListedDelivery } from "@gateway/domain/Delivery"
import { type AttemptRecord, maxKeptAttempts } from "@gateway/domain/DeliveryAttempt"
import { MerchantId } from "@gateway/domain/Merchant"
import { DeliveryQueue, type HurryOptions } from "@gateway/domain/ports/DeliveryQueue"
import { DateTime, Deferred, Duration, Effect, Layer, Queue, Schedule, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { randomUUID } from "node:crypto"
import { OutboxHandoff } from "./db/Handoff.ts"
import * as Outbox from "./db/Outbox.ts"

/** How the worker is woken besides LISTEN/NOTIFY. */
export interface DeliveryQueuePgOptions {
  /** The fallback tick that picks up retries whose time has come. Default 1 second. */
  readonly pollInterval?: Duration.Input | undefined
}

const FailedRow = Schema.Struct({
  id: Schema.String,
  merchant_id: MerchantId,
  type: MessageType,
  attempts: Schema.Int,
  last_error: Schema.NullOr(Schema.String),
  last_status: Schema.NullOr(Schema.Int),
  created_at: Schema.DateTimeUtcFromDate,
  failed_at: Schema.DateTimeUtcFromDate
})
const decodeFailed = Schema.decodeUnknownEffect(Schema.Array(FailedRow))

const ListedRow = Schema.Struct({
  id: Schema.String,
  merchant_id: MerchantId,
  type: MessageType,
  status: DeliveryStatus,
  attempts: Schema.Int,
  last_error: Schema.NullOr(Schema.String),
  last_status: Schema.NullOr(Schema.Int),
  created_at: Schema.DateTimeUtcFromDate,
  next_attempt_at: Schema.NullOr(Schema.DateTimeUtcFromDate),
  delivered_at: Schema.NullOr(Schema.DateTimeUtcFromDate),
  failed_at: Schema.NullOr(Schema.DateTimeUtcFromDate)
})
const decodeListed = Schema.decodeUnknownEffect(Schema.Array(ListedRow))

const listedOf = (row: typeof ListedRow.Type) =>
  new ListedDelivery({
    id: row.id,
    merchantId: row.merchant_id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    ...(row.last_status === null ? {} : { lastStatus: row.last_status }),
    createdAt: row.created_at,
    ...(row.status !== "pending" || row.next_attempt_at === null ? {} : { nextAttemptAt: row.next_attempt_at }),
    ...(row.delivered_at === null ? {} : { deliveredAt: row.delivered_at }),
    ...(row.status !== "failed" || row.failed_at === null ? {} : { failedAt: row.failed_at })
  })

/** An attempt as `webhook_deliveries.answer` keeps the delivered one and {@link find} reads the failed ones. */
const Attempt = Schema.Struct({
  at: Schema.Number,
  durationMs: Schema.Number,
  url: Schema.String,
  status: Schema.optionalKey(Schema.Number),
  headers: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  body: Schema.optionalKey(Schema.String),
  error: Schema.optionalKey(Schema.String)
})
const FoundRow = Schema.Struct({
  ...ListedRow.fields,
  body: Schema.String,
  answer: Schema.NullOr(Attempt),
  failures: Schema.Array(Attempt)
})
const decodeFound = Schema.decodeUnknownEffect(Schema.Array(FoundRow))

// What `MerchantId` checks, written out: its schema's guard (and `MessageType`'s, now `isMessageType`) were a few
// tenths of a per cent of the worker's CPU, for every message claimed.
const isMerchantId = (u: unknown): u is MerchantId => typeof u === "number" && Number.isSafeInteger(u) && u > 0

/**
 * A claimed row as a {@link Delivery}; a row of another shape is a defect.
 * Checked field by field: a Schema decode of each claimed row cost the worker
 * a few per cent of its CPU per message (bench/README.md).
 */
const deliveryOf = (row: Record<string, unknown>): Delivery => {
  const { id, merchant_id, type, body, attempts, created_at } = row
  if (
    typeof id !== "string" || !isMerchantId(merchant_id) || !isMessageType(type) || typeof body !== "string" ||
    typeof attempts !== "number" || !Number.isSafeInteger(attempts) || !(created_at instanceof Date)
  ) throw new Error(`webhook_deliveries_claim returned a row of another shape (id ${String(id)})`)
  return { id, merchantId: merchant_id, type, body, attempts, createdAt: DateTime.fromDateUnsafe(created_at) }
}

/** Delivered ids marked by one UPDATE, with their answers (JSON text; `null` when none), and its outcome, which each of their callers waits for. */
interface MarkBatch {
  readonly ids: Array<string>
  readonly answers: Array<string>
  readonly written: Deferred.Deferred<void>
}
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
  const handoff = yield* Effect.serviceOption(OutboxHandoff)

  const claim = (limit: number, leaseMs: number) =>
    sql`SELECT id, merchant_id, type, body, attempts, created_at FROM webhook_deliveries_claim(${limit}, ${leaseMs / 1000}::float8)`.pipe(
      Effect.map((rows) => rows.map(deliveryOf)),
      Effect.orDie,
      Effect.withSpan("DeliveryQueue.claim")
    )

  /** Delivered ids to be marked, oldest batch first; ids join the last batch until it holds {@link maxMarks}. */
  const marks: Array<MarkBatch> = []
  const marksQueued = yield* Queue.dropping<void>(1)
  const writeMarks = (batch: MarkBatch) =>
    Effect.flatMap(
      Effect.exit(sql`
        UPDATE webhook_deliveries d SET status = 'delivered', delivered_at = now(), lease_until = NULL,
          answer = nullif(m.answer, 'null'::jsonb)
        FROM unnest(${batch.ids}::text[], ${batch.answers}::jsonb[]) AS m(id, answer)
        -- "pending", said so that the planner cannot use the partial index of due messages: with few pending
        -- (the usual state) it scanned that index whole, with the dead entries every marked message leaves in it
        -- until a vacuum, and hashed it against the batch. A message is found by its primary key. (status takes
        -- only the three values of its CHECK.)
        WHERE d.id = m.id AND d.status NOT IN ('delivered', 'failed')`.pipe(Effect.asVoid, Effect.orDie)),
      (marked) => Deferred.done(batch.written, marked)
    )
  // Stopping: the marks of messages already answered are written before the database goes (the writer is
  // interrupted first — finalizers run last-added first — and puts back what it held), so they are not sent again.
  yield* Effect.addFinalizer(() => Effect.forEach(marks.splice(0), writeMarks, { discard: true }))
  const writeQueued = Effect.andThen(Queue.take(marksQueued), Effect.whileLoop({
    while: () => marks.length > 0,
    body: () =>
      Effect.gen(function*() {
        // A batch still open and small waits a little for more; ids keep joining it meanwhile.
        if (marks.length === 1 && marks[0]!.ids.length < lingerBelow) yield* Effect.sleep(markLinger)
        const batch = marks.shift()!
        // Interrupted while writing: the batch goes back for the finalizer (writing one twice is harmless).
        yield* Effect.onInterrupt(writeMarks(batch), () => Effect.sync(() => marks.unshift(batch)))
      }),
    step: () => undefined
  }))
  yield* Effect.forkScoped(Effect.forever(writeQueued))
  /**
   * Marks are written together: one UPDATE (one prepared statement, the ids as an array) for the marks of a
   * few milliseconds, and everyone whose id it carried waits for that one write. A marked message's slot is
   * free already (it stays leased until marked), so waiting costs no throughput and saves the database a
   * statement per few messages.
   */
  const delivered = (id: string, attempt?: AttemptRecord) =>
    Effect.suspend(() => {
      let open = marks[marks.length - 1]
      if (open === undefined || open.ids.length >= maxMarks) {
        open = { ids: [], answers: [], written: Deferred.makeUnsafe<void>() }
        marks.push(open)
        Queue.offerUnsafe(marksQueued, undefined)
      }
      open.ids.push(id)
      open.answers.push(attempt === undefined ? "null" : JSON.stringify(attempt))
      return Deferred.await(open.written)
    })

  const release = (ids: ReadonlyArray<string>) =>
    ids.length === 0 ? Effect.void : sql`
      UPDATE webhook_deliveries SET lease_until = NULL, attempts = greatest(attempts - 1, 0)
      WHERE id IN ${sql.in(ids)} AND status = 'pending' AND lease_until IS NOT NULL`.pipe(Effect.asVoid, Effect.orDie)

  /**
   * `update` (an UPDATE of one message … RETURNING id, attempts) and, when there is an attempt, the attempt's
   * row in the same statement: slot = its number, the last slot overwritten by the attempts after it.
   */
  const withAttempt = (update: Statement.Statement<unknown>, attempt: AttemptRecord | undefined) =>
    (attempt === undefined ? update : sql`
      WITH d AS (${update})
      INSERT INTO webhook_attempts AS a (delivery_id, slot, at, duration_ms, url, status, headers, body, error)
      SELECT d.id, least(greatest(d.attempts, 1), ${maxKeptAttempts}), to_timestamp(${attempt.at}::float8 / 1000),
        ${Math.round(attempt.durationMs)}, ${attempt.url}, ${attempt.status ?? null},
        ${attempt.headers === undefined ? null : JSON.stringify(attempt.headers)}::jsonb, ${attempt.body ?? null},
        ${attempt.error === undefined ? null : errorText(attempt.error)}
      FROM d
      ON CONFLICT (delivery_id, slot) DO UPDATE SET at = excluded.at, duration_ms = excluded.duration_ms,
        url = excluded.url, status = excluded.status, headers = excluded.headers, body = excluded.body,
        error = excluded.error`).pipe(Effect.asVoid, Effect.orDie)

  const retryLater = (id: string, delaySeconds: number, error: string, status?: number, attempt?: AttemptRecord) =>
    withAttempt(sql`
      UPDATE webhook_deliveries
      SET next_attempt_at = now() + make_interval(secs => ${delaySeconds}::float8), lease_until = NULL,
        last_error = ${errorText(error)}, last_status = ${status ?? null}
      WHERE id = ${id} AND status = 'pending' RETURNING id, attempts`, attempt)

  const postpone = (id: string, delaySeconds: number, error: string) =>
    sql`
      UPDATE webhook_deliveries
      SET next_attempt_at = now() + make_interval(secs => ${delaySeconds}::float8), lease_until = NULL,
        attempts = greatest(attempts - 1, 0), last_error = ${errorText(error)}
      WHERE id = ${id} AND status = 'pending'`.pipe(Effect.asVoid, Effect.orDie)

  const hurry = (merchantId: MerchantId, options: HurryOptions = {}) =>
    sql<{ readonly id: string }>`
      WITH waiting AS (
        SELECT w.id FROM webhook_deliveries w
        WHERE w.merchant_id = ${merchantId} AND w.status = 'pending'
          AND w.next_attempt_at > now() + make_interval(secs => ${options.waitingMoreThanSeconds ?? 0}::float8)
          AND (w.lease_until IS NULL OR w.lease_until < now())
          ${options.destination === undefined
  ? sql``
  : sql`AND (w.type = ANY(${CallbackEventType.literals}::text[])) = ${options.destination === "callback"}`}
        ORDER BY w.next_attempt_at
        LIMIT ${options.limit ?? null}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE webhook_deliveries d
      SET next_attempt_at = now(), attempts = ${options.probe === true ? sql`greatest(d.attempts - 1, 0)` : sql`d.attempts`}
      FROM waiting WHERE d.id = waiting.id
      RETURNING d.id`.pipe(
      Effect.tap((rows): Effect.Effect<unknown, SqlError> =>
        rows.length === 0 ? Effect.void : sql`SELECT pg_notify(${Outbox.channel}, '')`),
      Effect.map((rows) => rows.map((row) => row.id)),
      Effect.orDie,
      Effect.withSpan("DeliveryQueue.hurry")
    )

  const failed = (id: string, error: string, status?: number, attempt?: AttemptRecord) =>
    withAttempt(sql`
      UPDATE webhook_deliveries
      SET status = 'failed', failed_at = now(), lease_until = NULL, last_error = ${errorText(error)},
        last_status = ${status ?? null}
      WHERE id = ${id} AND status = 'pending' RETURNING id, attempts`, attempt)

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

  /**
   * The status as a literal of the statement, not a parameter: this pool runs generic plans
   * (`db/Database.ts`), and only a literal `status = 'failed'` lets a plan use the partial index of failed
   * deliveries (and `'pending'` the due index).
   */
  const statusIs: Record<DeliveryStatus, Statement.Fragment> = {
    pending: sql`AND status = 'pending'`,
    delivered: sql`AND status = 'delivered'`,
    failed: sql`AND status = 'failed'`
  }
  const list = (merchantId: MerchantId, status: DeliveryStatus | undefined, limit: number) =>
    sql`
      SELECT id, merchant_id, type, status, attempts, last_error, last_status, created_at, next_attempt_at,
        delivered_at, failed_at
      FROM webhook_deliveries WHERE merchant_id = ${merchantId} ${status === undefined ? sql`` : statusIs[status]}
      ORDER BY created_at DESC, id LIMIT ${limit}`.pipe(
      Effect.flatMap(decodeListed),
      Effect.map((rows) => rows.map(listedOf)),
      Effect.orDie,
      Effect.withSpan("DeliveryQueue.list")
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
      const body = yield* testBody(merchantId)
      yield* Outbox.enqueue(sql, { id, merchantId, type: "webhook.test", body })
      return id
    }).pipe(Effect.orDie, Effect.withSpan("DeliveryQueue.enqueueTest"))

  const testBody = (merchantId: MerchantId) =>
    Effect.map(DateTime.now, (now) =>
      JSON.stringify({ type: "webhook.test", timestamp: DateTime.formatIso(now), data: { merchantId } }))

  const startTest = (merchantId: MerchantId, leaseMs: number) =>
    Effect.gen(function*() {
      const id = `test_${randomUUID()}`
      const body = yield* testBody(merchantId)
      const [row] = yield* sql<{ readonly created_at: Date }>`
        INSERT INTO webhook_deliveries (id, merchant_id, type, body, attempts, lease_until)
        VALUES (${id}, ${merchantId}, 'webhook.test', ${body}, 1, now() + make_interval(secs => ${leaseMs / 1000}::float8))
        RETURNING created_at`
      return {
        id,
        merchantId,
        type: "webhook.test",
        body,
        attempts: 1,
        createdAt: DateTime.fromDateUnsafe(row?.created_at ?? new Date())
      } satisfies Delivery
    }).pipe(Effect.orDie, Effect.withSpan("DeliveryQueue.startTest"))

  const find = (merchantId: MerchantId, id: string) =>
    Effect.gen(function*() {
      // The failed attempts in the shape the delivered one is kept in (`answer`), so one schema reads both.
      const [row] = yield* sql`
        SELECT id, merchant_id, type, status, attempts, last_error, last_status, created_at, next_attempt_at,
          delivered_at, failed_at, body, answer,
          coalesce((
            SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
              'at', extract(epoch FROM a.at)::float8 * 1000, 'durationMs', a.duration_ms, 'url', a.url,
              'status', a.status, 'headers', a.headers, 'body', a.body, 'error', a.error
            )) ORDER BY a.at)
            FROM webhook_attempts a WHERE a.delivery_id = d.id
          ), '[]'::jsonb) AS failures
        FROM webhook_deliveries d WHERE id = ${id} AND merchant_id = ${merchantId}`.pipe(Effect.flatMap(decodeFound))
      if (row === undefined) return undefined
      return {
        listed: listedOf(row),
        body: row.body,
        attempts: [...row.failures, ...(row.answer === null ? [] : [row.answer])]
      }
    }).pipe(Effect.orDie, Effect.withSpan("DeliveryQueue.find"))

  const takeHanded = (limit: number) =>
    Effect.sync(() => handoff._tag === "Some" ? handoff.value.take(limit) : [])
  const handed = handoff._tag === "Some" ? handoff.value.arrivals : Stream.never

  return DeliveryQueue.of({
    claim,
    release,
    delivered,
    retryLater,
    postpone,
    hurry,
    failed,
    wakeups,
    takeHanded,
    handed,
    listFailed,
    list,
    redeliver,
    enqueueTest,
    startTest,
    find
  })
})

/** The queue on the database of the `PgClient` (LISTEN/NOTIFY needs PostgreSQL itself). */
export const layer = (
  options: DeliveryQueuePgOptions = {}
): Layer.Layer<DeliveryQueue, never, PgClient.PgClient | SqlClient> => Layer.effect(DeliveryQueue, make(options))
