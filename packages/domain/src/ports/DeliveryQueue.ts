import type { Effect, Stream } from "effect"
import { Context } from "effect"
import type { Destination } from "../Callback.ts"
import type { Delivery, DeliveryStatus, FailedDelivery, ListedDelivery } from "../Delivery.ts"
import type { AttemptRecord, StoredDelivery } from "../DeliveryAttempt.ts"
import type { MerchantId } from "../Merchant.ts"

/** Which waiting messages {@link DeliveryQueue.hurry} makes due. */
export interface HurryOptions {
  readonly limit?: number
  readonly probe?: boolean
  readonly waitingMoreThanSeconds?: number
  /** Only the messages to this destination (its URL answers again; the other may still be down). Default: all. */
  readonly destination?: Destination
}

/**
 * The webhook outbox as the delivery worker and the admin endpoints see it.
 * Claims are leased: a message is sent by one worker at a time, and a claim
 * whose worker died is taken over when its lease expires.
 */
export class DeliveryQueue extends Context.Service<DeliveryQueue, {
  /** Up to `limit` due, unleased messages, leased for `leaseMs` and their attempt counted. */
  claim(limit: number, leaseMs: number): Effect.Effect<ReadonlyArray<Delivery>>
  /** Claimed but never sent (the worker stopped, or waited too long): the lease is given back and the attempt uncounted. */
  release(ids: ReadonlyArray<string>): Effect.Effect<void>
  /** The operator answered 2xx: never sent again. The answer `attempt` is kept with the message, in the same write. */
  delivered(id: string, attempt?: AttemptRecord): Effect.Effect<void>
  /** Try again after `delaySeconds`; the lease is released. The failed `attempt` is kept, in the same statement. */
  retryLater(id: string, delaySeconds: number, error: string, status?: number, attempt?: AttemptRecord): Effect.Effect<void>
  /**
   * Not sent: the operator's circuit breaker is open. Due again after `delaySeconds`, the lease released and the
   * attempt uncounted, so a pause never uses up the retry schedule.
   */
  postpone(id: string, delaySeconds: number, error: string): Effect.Effect<void>
  /** Retries exhausted: listed as failed until an admin redelivers it. The failed `attempt` is kept likewise. */
  failed(id: string, error: string, status?: number, attempt?: AttemptRecord): Effect.Effect<void>
  /**
   * Makes the merchant's messages that wait for a retry due now, oldest first, at most `limit` (all when absent),
   * and wakes the workers: its operator answers again, so what it missed goes out at once instead of at its
   * scheduled retry. A `probe` brings one attempt ahead of the schedule that is not counted (its failure keeps
   * the message at the same step of the schedule); `waitingMoreThanSeconds` leaves alone the messages due within
   * that time anyway. The ids made due.
   */
  hurry(merchantId: MerchantId, options?: HurryOptions): Effect.Effect<ReadonlyArray<string>>
  /** Emits whenever a message may have become due (queued, redelivered), so delivery starts at once. */
  readonly wakeups: Stream.Stream<void>
  /**
   * Up to `limit` messages this process queued already leased to itself, oldest first, taken: they are sent
   * without a claim (a round's credit, right after its commit). Their attempt is counted.
   */
  takeHanded(limit: number): Effect.Effect<ReadonlyArray<Delivery>>
  /** Emits when messages have been handed to this process's worker since the last {@link takeHanded}. */
  readonly handed: Stream.Stream<void>
  /** The merchant's failed messages, newest first, at most `limit`. */
  listFailed(merchantId: MerchantId, limit: number): Effect.Effect<ReadonlyArray<FailedDelivery>>
  /** The merchant's messages of `status` (every status when undefined), newest first, at most `limit`. */
  list(merchantId: MerchantId, status: DeliveryStatus | undefined, limit: number): Effect.Effect<ReadonlyArray<ListedDelivery>>
  /** Puts a failed message of the merchant back in the queue, due now; false when there is none with this id. */
  redeliver(merchantId: MerchantId, id: string): Effect.Effect<boolean>
  /** Queues a `webhook.test` ping for the merchant; its id. */
  enqueueTest(merchantId: MerchantId): Effect.Effect<string>
  /** Queues a `webhook.test` ping already leased for `leaseMs` to the caller, its attempt counted, to send it now. */
  startTest(merchantId: MerchantId, leaseMs: number): Effect.Effect<Delivery>
  /** One message of the merchant with its body and kept attempts; undefined when it has none with this id. */
  find(merchantId: MerchantId, id: string): Effect.Effect<StoredDelivery | undefined>
}>()("@gateway/domain/ports/DeliveryQueue") {}
