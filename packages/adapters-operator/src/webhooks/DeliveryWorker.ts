import { Clock, DateTime, Duration, Effect, FiberSet, Layer, Queue, Random, Stream } from "effect"
import { type Delivery, noWebhookUrl } from "@gateway/domain/Delivery"
import { answerOf, type AttemptRecord } from "@gateway/domain/DeliveryAttempt"
import type { Merchant, MerchantId } from "@gateway/domain/Merchant"
import { DeliveryQueue } from "@gateway/domain/ports/DeliveryQueue"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { nextDelay } from "@gateway/domain/RetrySchedule"
import { deliveryUrlFor } from "@gateway/domain/Callback"
import * as CallSpan from "../http/CallSpan.ts"
import { parseRetryAfter } from "../http/RetryAfter.ts"
import type { OperatorAnswer } from "../http/OperatorHttp.ts"
import type { Paused } from "../http/OperatorCircuit.ts"
import { type SendFailure, SignedPost } from "../http/SignedPost.ts"
import * as Metrics from "../http/CallMetrics.ts"
import * as Recovery from "./Recovery.ts"

/** How the delivery worker runs. */
export interface WorkerOptions {
  /** How long one attempt may take (`WEBHOOK_TIMEOUT_MS`). */
  readonly timeoutMs: number
  /** Seconds between attempts (`WEBHOOK_RETRY_SCHEDULE`); exhausted → `failed`. */
  readonly schedule: ReadonlyArray<number>
  /** Messages in flight at once (default 16). */
  readonly concurrency?: number | undefined
  /** How long a claim is leased (default 30 s, at least `aheadPerSlot` + 2 time-outs). */
  readonly leaseMs?: number | undefined
  /** The safety tick: the queue is looked at this often without a wakeup (default 1 s); retries come due on it. */
  readonly pollInterval?: Duration.Input | undefined
  /** How often a merchant whose messages wait for a retry is probed (default 1 s; see `Recovery.ts`). */
  readonly probeEveryMs?: number | undefined
  /** For how long after its first deferred message a merchant is probed (default 10 min). */
  readonly probeWindowMs?: number | undefined
}


/** The result of one attempt. */
interface NotDelivered {
  readonly _tag: "NotDelivered"
  readonly error: string
  readonly status?: number
  readonly retryAfter?: number
  /** The attempt as the back office shows it, when a request was made. */
  readonly record?: AttemptRecord
}
interface Delivered {
  readonly _tag: "Delivered"
  readonly record: AttemptRecord
}
type Attempt = Delivered | NotDelivered | Paused

const noMerchant = "the merchant does not exist"
const pausedError = "not sent: the operator kept failing and its circuit breaker is open"

const notDelivered = (error: string, status?: number, retryAfter?: number, record?: AttemptRecord): NotDelivered => ({
  _tag: "NotDelivered",
  error,
  ...(status === undefined ? {} : { status }),
  ...(retryAfter === undefined ? {} : { retryAfter }),
  ...(record === undefined ? {} : { record })
})

/** A sent message's outcome with its {@link AttemptRecord} (`at`: when it was signed). */
export const outcomeOf = (
  url: string,
  at: number,
  end: number,
  timeoutMs: number,
  result: { readonly answer: OperatorAnswer } | { readonly failure: Exclude<SendFailure, Paused> }
): Delivered | NotDelivered => {
  const base = { at, durationMs: Math.max(0, end - at), url }
  if ("failure" in result) {
    const failure = result.failure
    const error = failure._tag === "TimedOut"
      ? `no answer within ${timeoutMs} ms`
      : failure._tag === "KeysUnavailable"
      ? "the merchant's signing keys could not be read"
      : failure.detail
    return notDelivered(error, undefined, undefined, { ...base, error })
  }
  const answer = result.answer
  const record = { ...base, ...answerOf(answer.status, answer.headers, answer.body) }
  return answer.status >= 200 && answer.status < 300
    ? { _tag: "Delivered", record }
    : notDelivered(`the operator answered HTTP ${answer.status}`, answer.status, parseRetryAfter(answer.headers["retry-after"], end), record)
}

/**
 * Claimed messages kept waiting per slot. A claim's round trip under load
 * (5–10 ms) is as long as 16 slots take to send 20–40 messages: with fewer
 * waiting, slots stood idle for the next claim (bench/README.md).
 */
const aheadPerSlot = 4

/**
 * How long a claim is leased when `leaseMs` is not given: 30 s, or room for the `aheadPerSlot` attempts a claimed
 * message may wait behind and its own two. Messages handed to the worker by their transaction are leased as long.
 */
export const defaultLeaseMs = (timeoutMs: number): number => Math.max(30_000, timeoutMs * (aheadPerSlot + 2))

/**
 * The outbox worker (CONTRACT §5), forked into the current scope: it claims
 * due messages when the queue wakes it (and on a safety tick), sends each to
 * the URL of its type chosen from the merchant's current settings (each
 * merchant of a claimed batch read once, after the claim), signed
 * afresh with the message's own id as `webhook-id` and its stored body, at
 * most `concurrency` at once (a slot is free again as soon as the operator
 * has answered; the outcome is recorded meanwhile, the message staying leased
 * until it is). Up to `aheadPerSlot` × `concurrency` claimed messages wait in
 * memory for a slot, refilled by a claim once `concurrency` of them have
 * gone, so a busy queue costs one claim per `concurrency` or more sends and
 * no slot waits for a claim's round trip. 2xx → delivered; anything else → retried after
 * the schedule's next delay (jittered, an operator's `Retry-After` honoured),
 * or failed when the schedule is exhausted. While the merchant's circuit
 * breaker is open a message is not sent but postponed until the circuit
 * lets a probe through, its attempt uncounted. Claims are leased, so no message
 * is sent by two workers at once while its attempt lasts.
 */
export const make = Effect.fnUntraced(function*(options: WorkerOptions) {
  const queue = yield* DeliveryQueue
  const merchants = yield* MerchantRepo
  const signed = yield* SignedPost
  const concurrency = options.concurrency ?? 16
  const leaseMs = options.leaseMs ?? defaultLeaseMs(options.timeoutMs)
  const pollInterval = options.pollInterval ?? Duration.seconds(1)
  const traced = yield* CallSpan.exported
  /** A delivery's attempt and its recorded outcome as the root span of a trace, when traces are exported. */
  const deliverySpan = (delivery: Delivery) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    traced
      ? Effect.withSpan(effect, "DeliveryWorker.deliver", {
        root: true,
        kind: "consumer",
        attributes: { "delivery.id": delivery.id, "delivery.type": delivery.type, "delivery.attempt": delivery.attempts }
      })
      : effect

  /** The operator's answer or why there is none, as the attempt's result (plain combinators: this runs for every message). */
  const attempt = (delivery: Delivery, merchant: Merchant | undefined): Effect.Effect<Attempt> => {
    if (merchant === undefined) return Effect.succeed(notDelivered(noMerchant))
    const url = deliveryUrlFor(merchant.MerchantSettings, delivery.type)
    if (url === undefined) return Effect.succeed(notDelivered(noWebhookUrl))
    return Effect.flatMap(Clock.currentTimeMillis, (at) =>
      Effect.matchEffect(
        signed.send({
          merchantId: delivery.merchantId,
          url,
          messageId: delivery.id,
          body: delivery.body,
          timeoutMs: options.timeoutMs,
          span: "DeliveryWorker.send",
          timestampMs: at
        }),
        {
          onFailure: (failure): Effect.Effect<Attempt> =>
            failure._tag === "Paused"
              ? Effect.succeed(failure)
              : Effect.map(Clock.currentTimeMillis, (end) => outcomeOf(url, at, end, options.timeoutMs, { failure })),
          onSuccess: (answer): Effect.Effect<Attempt> =>
            Effect.map(Clock.currentTimeMillis, (end) => outcomeOf(url, at, end, options.timeoutMs, { answer }))
        }
      ))
  }

  const recovery = Recovery.make(queue, {
    probeEveryMs: options.probeEveryMs ?? 1000,
    probeWindowMs: options.probeWindowMs ?? 600_000,
    leaseMs
  })

  const recordFailure = Effect.fnUntraced(function*(delivery: Delivery, result: NotDelivered) {
    const delay = nextDelay(options.schedule, delivery.attempts, yield* Random.next, result.retryAfter)
    // Probing helps only when the operator itself failed, not a merchant without a URL.
    const operatorFailed = delay !== undefined && result.error !== noWebhookUrl && result.error !== noMerchant
    recovery.failed(delivery, operatorFailed, result.retryAfter, yield* Clock.currentTimeMillis)
    yield* Metrics.countDelivery(delivery.type, delay === undefined ? "failed" : "retry")
    // A retry is routine (WARN); a message whose retries are used up waits for a person (ERROR).
    const log = delay === undefined
      ? Effect.logError("webhook delivery failed, retries used up: redeliver it once the operator answers")
      : Effect.logWarning("webhook delivery failed")
    yield* log.pipe(
      Effect.annotateLogs({
        deliveryId: delivery.id,
        merchantId: delivery.merchantId,
        type: delivery.type,
        attempt: delivery.attempts,
        error: result.error,
        ...(result.status === undefined ? {} : { status: result.status }),
        next: delay === undefined ? "failed" : `in ${delay.toFixed(1)} s`
      })
    )
    return yield* delay === undefined
      ? queue.failed(delivery.id, result.error, result.status, result.record)
      : queue.retryLater(delivery.id, delay, result.error, result.status, result.record)
  })
  /** Paused with its merchant's circuit: due again once the circuit lets a probe through, a little jittered. */
  const recordPaused = (delivery: Delivery, result: Paused) =>
    Effect.flatMap(Random.next, (jitter) =>
      queue.postpone(delivery.id, (result.retryAfterMs + jitter * 250) / 1000, pausedError))
  const record = (delivery: Delivery, result: Attempt): Effect.Effect<void> =>
    result._tag === "Paused"
      ? recordPaused(delivery, result)
      : result._tag === "Delivered"
      ? Effect.andThen(queue.delivered(delivery.id, result.record), Metrics.countDelivery(delivery.type, "delivered")).pipe(
        Effect.andThen(Effect.suspend(() => recovery.delivered(delivery)))
      )
      : recordFailure(delivery, result)

  /** One attempt's result; a defect while sending counts as a failed attempt. */
  const send = (delivery: Delivery, merchant: Merchant | undefined) =>
    Effect.catchCause(attempt(delivery, merchant), (cause) =>
      Effect.as(
        Effect.logError("webhook delivery crashed", cause).pipe(Effect.annotateLogs({ deliveryId: delivery.id })),
        notDelivered("internal error while sending")
      ))

  /**
   * The merchants of a claimed batch as they are now, all in one read: their URLs decide where messages go. (One
   * read per merchant cost a statement per message when a batch held many merchants: bench/README.md, "The bet path".)
   */
  const merchantsNow = (batch: ReadonlyArray<Delivery>) =>
    Effect.map(
      merchants.findByIds([...new Set(batch.map((delivery) => delivery.merchantId))]),
      (found) => new Map<MerchantId, Merchant | undefined>(found.map((merchant) => [merchant.id, merchant]))
    )

  const wake = yield* Queue.dropping<void>(1)
  const signal = Effect.asVoid(Queue.offer(wake, undefined))
  /** A claim may find messages: something was queued or came due (a wakeup, the tick), or the last claim was full. */
  let claimWanted = true
  /** Messages handed to this worker (queued leased by this process) may be waiting: the last take was full, or one arrived. */
  let handedWaiting = true
  yield* Stream.runForEach(queue.wakeups, () => Effect.andThen(Effect.sync(() => (claimWanted = true)), signal)).pipe(
    Effect.catchCause((cause) => Effect.logWarning("delivery wakeups stopped; listening again", cause)),
    Effect.andThen(Effect.sleep(pollInterval)),
    Effect.forever,
    Effect.forkScoped
  )
  yield* Stream.runForEach(queue.handed, () => Effect.andThen(Effect.sync(() => (handedWaiting = true)), signal)).pipe(
    Effect.catchCause((cause) => Effect.logWarning("delivery handoffs stopped; listening again", cause)),
    Effect.forever,
    Effect.forkScoped
  )
  // The safety tick, one timer for the worker: a step waits for a signal alone, not for a signal raced
  // against a time-out of its own (a timer and a race on every step, i.e. on nearly every message).
  yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(pollInterval), Effect.andThen(Effect.sync(() => (claimWanted = true)), signal))))
  yield* recovery.probe.pipe(
    Effect.catchCause((cause) => Effect.logWarning("probing operators behind failed", cause)),
    Effect.andThen(Effect.sleep(Duration.millis(options.probeEveryMs ?? 1000))),
    Effect.forever,
    Effect.forkScoped
  )

  const inFlight = yield* FiberSet.make()
  // Stopping: the attempts under way finish (for up to 2 s, or their time-out if shorter) and their outcomes are
  // recorded, rather than being cut off after the operator may have received them: a cut-off message would be
  // sent again by another instance once its lease ran out (the bench's two instances saw 16 such repeats).
  yield* Effect.addFinalizer(() =>
    Effect.timeoutOption(FiberSet.awaitEmpty(inFlight), Duration.millis(Math.min(options.timeoutMs, 2000)))
  )
  /** Claimed messages waiting for a slot: at most `aheadPerSlot` × `concurrency`. */
  const waiting: Array<{ readonly delivery: Delivery; readonly merchant: Merchant | undefined; readonly claimedAt: number }> = []
  /** Taken by the step under way (handed, then claimed) and not yet waiting: given back too if it is interrupted. */
  const taking: Array<Delivery> = []
  /**
   * A waiting message is sent only while its lease leaves room for a whole
   * attempt: a queue of at most `aheadPerSlot` × `concurrency` ahead of it
   * waits at most `aheadPerSlot` time-outs, within the default lease, so this
   * bound is only reached when the clock jumps, the process stalls or a lease
   * was set shorter; the message is then released, to be claimed again.
   */
  const startBy = Math.max(0, leaseMs - 2 * options.timeoutMs)
  let active = 0
  /** How many more messages the worker can hold: sending, and waiting for a slot. */
  const roomToClaim = () => (aheadPerSlot + 1) * concurrency - active - waiting.length
  /** Work for the claiming fiber: handed messages and room for them, or a claim wanted and room for a full one. */
  const workWaiting = () => {
    const room = roomToClaim()
    return (handedWaiting && room > 0) || (claimWanted && room >= concurrency)
  }
  /**
   * Stopping: what waits unsent — claimed, or handed to this worker by its process's settlements — is given back
   * at once instead of when its lease runs out, for another instance (or this one, restarted) to claim.
   */
  yield* Effect.addFinalizer(() =>
    Effect.flatMap(queue.takeHanded(Number.MAX_SAFE_INTEGER), (handed) =>
      queue.release([
        ...waiting.splice(0).map(({ delivery }) => delivery.id),
        ...taking.splice(0).map((delivery) => delivery.id),
        ...handed.map((delivery) => delivery.id)
      ]))
  )
  /**
   * Starts waiting messages while slots are free. It runs after each claim and
   * as soon as a send has its answer, from that send's fiber: a slot is given
   * its next message at once, never after the claim query that may be running.
   */
  const startWaiting: Effect.Effect<void> = Effect.suspend(() => {
    if (active >= concurrency || waiting.length === 0) return Effect.void
    return Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const late: Array<string> = []
      const started: Array<Effect.Effect<unknown>> = []
      while (active < concurrency && waiting.length > 0) {
        const { delivery, merchant, claimedAt } = waiting.shift()!
        if (now - claimedAt > startBy) {
          late.push(delivery.id)
          continue
        }
        active++
        started.push(FiberSet.run(
          inFlight,
          send(delivery, merchant).pipe(
            Effect.ensuring(Effect.suspend(() => {
              active--
              // The claiming fiber is woken when a claim or a handoff may bring more and has room, not after every message.
              return workWaiting() ? Effect.andThen(startWaiting, signal) : startWaiting
            })),
            Effect.flatMap((result) => record(delivery, result)),
            deliverySpan(delivery)
          )
        ))
      }
      return Effect.andThen(Effect.all(started, { discard: true }), queue.release(late))
    })
  })
  const step = Effect.gen(function*() {
    // Handed messages first (no query: their transaction leased them to this process), then a claim when one is
    // wanted and a full one fits.
    const room = roomToClaim()
    const handed = handedWaiting && room > 0 ? yield* queue.takeHanded(room) : []
    if (handedWaiting && room > 0) handedWaiting = handed.length === room
    taking.push(...handed)
    const left = room - handed.length
    const claiming = claimWanted && left >= concurrency
    const claimed = claiming ? yield* queue.claim(left, leaseMs) : []
    if (claiming) claimWanted = claimed.length === left
    taking.push(...claimed)
    if (taking.length > 0) {
      const now = yield* Clock.currentTimeMillis
      const current = yield* merchantsNow(taking)
      // A handed message's lease began at its commit; a claimed one's now.
      for (const delivery of handed) {
        waiting.push({ delivery, merchant: current.get(delivery.merchantId), claimedAt: DateTime.toEpochMillis(delivery.createdAt) })
      }
      for (const delivery of claimed) waiting.push({ delivery, merchant: current.get(delivery.merchantId), claimedAt: now })
    }
    taking.length = 0
    yield* startWaiting
    if (!workWaiting()) yield* Queue.take(wake)
  }).pipe(
    Effect.catchCause((cause) =>
      Effect.logError("webhook delivery worker failed; retrying", cause).pipe(
        // What the failed step had taken and not queued is given back, to be claimed again.
        Effect.andThen(Effect.suspend(() => queue.release(taking.splice(0).map((delivery) => delivery.id)))),
        Effect.andThen(Effect.sleep(pollInterval))
      )
    )
  )
  yield* Effect.forkScoped(Effect.forever(step))
})

/**
 * The worker as a layer: it runs while the layer is alive. Give it the
 * repository itself, never a cache of it: each attempt goes to the URL the
 * merchant has configured now.
 */
export const layer = (options: WorkerOptions): Layer.Layer<never, never, DeliveryQueue | MerchantRepo | SignedPost> =>
  Layer.effectDiscard(make(options))
