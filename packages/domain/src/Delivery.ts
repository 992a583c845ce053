import type { DateTime } from "effect"
import { Schema } from "effect"
import { MerchantId } from "./Merchant.ts"
import { UtcTimestamp } from "./Validation.ts"
import { MessageType } from "./Callback.ts"

/** A queued webhook message (a row of the transactional outbox), as the delivery worker sends it. */
export interface Delivery {
  /** The message id: the transaction's id, sent as `webhook-id` on every attempt. */
  readonly id: string
  readonly merchantId: MerchantId
  readonly type: MessageType
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
  type: MessageType.annotate({ description: "The message's type" }),
  attempts: Schema.Int.annotate({ description: "Deliveries tried" }),
  lastError: Schema.String.annotate({ description: "Why the last attempt failed" }),
  lastStatus: Schema.optionalKey(Schema.Int).annotate({ description: "The HTTP status of the last answer, when there was one" }),
  createdAt: UtcTimestamp("When the message was written (ISO 8601, UTC)"),
  failedAt: UtcTimestamp("When its retries ran out (ISO 8601, UTC)")
}).annotate({
  identifier: "FailedDelivery",
  description: "A message whose retries are exhausted: listed for admins until one redelivers it."
})) {}

/** Where a message of the outbox is: waiting to be sent (or retried), delivered (2xx), or failed (retries used up). */
export const DeliveryStatus = Schema.Literals(["pending", "delivered", "failed"])
export type DeliveryStatus = typeof DeliveryStatus.Type

/** A message of a merchant's outbox as an admin lists it, with what is known of its attempts. */
export class ListedDelivery extends Schema.Class<ListedDelivery>("@gateway/domain/ListedDelivery")(Schema.Struct({
  id: Schema.String.annotate({ description: "The message's id, its `webhook-id`" }),
  merchantId: MerchantId.annotate({ description: "The merchant it is for" }),
  type: MessageType.annotate({ description: "The message's type" }),
  status: DeliveryStatus.annotate({
    description: "pending: waiting to be sent or retried; delivered: answered 2xx; failed: retries used up"
  }),
  attempts: Schema.Int.annotate({ description: "Deliveries tried" }),
  lastError: Schema.optionalKey(Schema.String).annotate({ description: "Why the last attempt failed, when one did" }),
  lastStatus: Schema.optionalKey(Schema.Int).annotate({ description: "The HTTP status of the last answer, when there was one" }),
  createdAt: UtcTimestamp("When the message was written (ISO 8601, UTC)"),
  nextAttemptAt: Schema.optionalKey(UtcTimestamp("Pending: when the next attempt is due (ISO 8601, UTC)")),
  deliveredAt: Schema.optionalKey(UtcTimestamp("Delivered: when the operator answered 2xx (ISO 8601, UTC)")),
  failedAt: Schema.optionalKey(UtcTimestamp("Failed: when its retries ran out (ISO 8601, UTC)"))
}).annotate({
  identifier: "ListedDelivery",
  description: "A message of a merchant's outbox as an admin lists it, with what is known of its attempts."
})) {}

/** The error recorded when a merchant has no URL for a message (the rule is `Callback.deliveryUrlFor`). */
export const noWebhookUrl = "no webhook URL configured"
