import { Context, type DateTime, type Effect } from "effect"
import type { Merchant, Wallet } from "@gateway/domain"

/** A failed webhook message as the admin API lists it. */
export interface FailedMessage {
  readonly id: string
  readonly merchantId: number
  readonly type: Wallet.WalletEventType
  readonly attempts: number
  readonly lastError: string
  readonly lastStatus?: number | undefined
  readonly createdAt: DateTime.Utc
  readonly failedAt: DateTime.Utc
}

/**
 * The webhook outbox as the admin endpoints need it. Its shape is the
 * matching part of `@gateway/adapters-operator/DeliveryQueue`, so the app
 * provides it from the queue: `WebhookDeliveries.of({ listFailed: q.listFailed,
 * redeliver: q.redeliver, enqueueTest: q.enqueueTest })`.
 */
export class WebhookDeliveries extends Context.Service<WebhookDeliveries, {
  listFailed(merchantId: Merchant.MerchantId, limit: number): Effect.Effect<ReadonlyArray<FailedMessage>>
  /** False when the merchant has no failed message with this id. */
  redeliver(merchantId: Merchant.MerchantId, id: string): Effect.Effect<boolean>
  /** Queues a `webhook.test` ping; its id. */
  enqueueTest(merchantId: Merchant.MerchantId): Effect.Effect<string>
}>()("@gateway/adapters-http/WebhookDeliveries") {}
