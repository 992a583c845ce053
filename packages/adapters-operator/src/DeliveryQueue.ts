import type { DateTime, Effect, Stream } from "effect"
import { Context } from "effect"
import type { MerchantId } from "@gateway/domain/Merchant"
import type { WalletEventType } from "@gateway/domain/Wallet"

/** A queued webhook message (a row of the transactional outbox). */
export interface Delivery {
  /** The message id: the transaction's id, sent as `webhook-id` on every attempt. */
  readonly id: string
  readonly merchantId: MerchantId
  readonly type: WalletEventType
  /** The exact JSON body, fixed when the message was queued: the same bytes on every attempt. */
  readonly body: string
  /** Attempts made so far, this one included. */
  readonly attempts: number
  readonly createdAt: DateTime.Utc
}

/** A message whose retries are exhausted (or that an admin may redeliver). */
export interface FailedDelivery {
  readonly id: string
  readonly merchantId: MerchantId
  readonly type: WalletEventType
  readonly attempts: number
  readonly lastError: string
  readonly lastStatus?: number | undefined
  readonly createdAt: DateTime.Utc
  readonly failedAt: DateTime.Utc
}

/**
 * The outbox as the delivery worker sees it. Claims are leased: a message is
 * sent by one worker at a time, and a claim whose worker died is taken over
 * when its lease expires.
 */
export class DeliveryQueue extends Context.Service<DeliveryQueue, {
  /** Up to `limit` due, unleased messages, leased for `leaseMs` and their attempt counted (FOR UPDATE SKIP LOCKED). */
  claim(limit: number, leaseMs: number): Effect.Effect<ReadonlyArray<Delivery>>
  /** The operator answered 2xx: never sent again. */
  delivered(id: string): Effect.Effect<void>
  /** Try again after `delaySeconds`; the lease is released. */
  retryLater(id: string, delaySeconds: number, error: string, status?: number): Effect.Effect<void>
  /** Retries exhausted: listed as failed until an admin redelivers it. */
  failed(id: string, error: string, status?: number): Effect.Effect<void>
  /** Emits whenever a message may have become due (queued, redelivered): LISTEN/NOTIFY, so delivery starts at once. */
  readonly wakeups: Stream.Stream<void>
  listFailed(merchantId: MerchantId, limit: number): Effect.Effect<ReadonlyArray<FailedDelivery>>
  /** Puts a failed message of the merchant back in the queue, due now; false when there is none with this id. */
  redeliver(merchantId: MerchantId, id: string): Effect.Effect<boolean>
  /** Queues a `webhook.test` ping for the merchant; its id. */
  enqueueTest(merchantId: MerchantId): Effect.Effect<string>
}>()("@gateway/adapters-operator/DeliveryQueue") {}
