import type { MessageType } from "@gateway/domain/Callback"
import type { WalletTransaction } from "@gateway/domain/Wallet"
import { toWebhookBody } from "@gateway/domain/Wallet"
import { DateTime, Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"

/**
 * The channel notified at commit whenever an outbox message becomes pending
 * (by the triggers of migration 0004, which name it literally).
 */
export const channel = "gateway_outbox"

/** A message to queue: its id is the `webhook-id` of every attempt. */
export interface OutboxMessage {
  readonly id: string
  readonly merchantId: number
  readonly type: MessageType
  readonly body: string
}

/** The outbox message of a wallet transaction: id = transactionId, body fixed now with the current time. */
export const ofTransaction = (tx: WalletTransaction): Effect.Effect<OutboxMessage> =>
  Effect.map(DateTime.now, (now) => ({
    id: tx.transactionId,
    merchantId: tx.merchantId,
    type: tx.type,
    body: JSON.stringify(toWebhookBody(tx, DateTime.formatIso(now)))
  }))

/** A callback's outbox message (CONTRACT §10): a new id, the body as given. */
export const ofCallback = (merchantId: number, body: { readonly type: MessageType }): OutboxMessage => ({
  id: randomUUID(),
  merchantId,
  type: body.type,
  body: JSON.stringify(body)
})

/**
 * Queues a message, due now. Run it inside the transaction that writes the
 * rows causing it; the insert trigger notifies {@link channel} at commit.
 */
export const enqueue = (sql: SqlClient, message: OutboxMessage) =>
  sql`INSERT INTO webhook_deliveries (id, merchant_id, type, body)
    VALUES (${message.id}, ${message.merchantId}, ${message.type}, ${message.body})`
