import type { DateTime } from "effect"
import { Schema } from "effect"
import { MerchantId } from "./Merchant.ts"
import { UtcTimestamp } from "./Validation.ts"
import { WalletEventType } from "./Wallet.ts"

/** A queued webhook message (a row of the transactional outbox), as the delivery worker sends it. */
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

/** A message whose retries are exhausted: listed for admins until one redelivers it. */
export class FailedDelivery extends Schema.Class<FailedDelivery>("@gateway/domain/FailedDelivery")(Schema.Struct({
  id: Schema.String.annotate({ description: "The message's id, its `webhook-id`" }),
  merchantId: MerchantId.annotate({ description: "The merchant it is for" }),
  type: WalletEventType.annotate({ description: "The message's type" }),
  attempts: Schema.Int.annotate({ description: "Deliveries tried" }),
  lastError: Schema.String.annotate({ description: "Why the last attempt failed" }),
  lastStatus: Schema.optionalKey(Schema.Int).annotate({ description: "The HTTP status of the last answer, when there was one" }),
  createdAt: UtcTimestamp("When the message was written (ISO 8601, UTC)"),
  failedAt: UtcTimestamp("When its retries ran out (ISO 8601, UTC)")
}).annotate({
  identifier: "FailedDelivery",
  description: "A message whose retries are exhausted: listed for admins until one redelivers it."
})) {}

/** The error recorded when a merchant has no URL for a message (the rule is `Wallet.webhookUrlFor`). */
export const noWebhookUrl = "no webhook URL configured"
