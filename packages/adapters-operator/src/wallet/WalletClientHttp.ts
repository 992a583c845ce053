import { Clock, Effect, Layer, Schema } from "effect"
import { noWebhookUrl } from "@gateway/domain/Delivery"
import type { Merchant } from "@gateway/domain/Merchant"
import { DecimalString } from "@gateway/domain/Player"
import { WalletClient } from "@gateway/domain/ports/WalletClient"
import { BetRefused, toWebhookBody, type WalletTransaction, WalletUnavailable, webhookUrlFor } from "@gateway/domain/Wallet"
import { SignedPost } from "../http/SignedPost.ts"

/** The operator's answer to an accepted debit: its balance, a decimal string (a float is refused). */
const decodeAnswer = Schema.decodeUnknownExit(Schema.fromJsonString(Schema.Struct({ balance: DecimalString })))

const unavailable = (detail: string) => new WalletUnavailable({ detail })

/**
 * The synchronous debit (CONTRACT §5): one signed POST of the
 * `transaction.debit` body (`webhook-id` = transactionId) to the merchant's
 * debit URL, never retried. 2xx with `{balance}` → accepted; 4xx → BetRefused;
 * time-out (`timeoutMs`, the request is aborted), 3xx, 5xx, network failure,
 * a refused address, an unparsable 2xx or no webhook URL configured →
 * WalletUnavailable (the use case rejects the bet and queues a refund).
 */
export const make = Effect.fnUntraced(function*(timeoutMs: number) {
  const signed = yield* SignedPost
  const debit = Effect.fnUntraced(function*(merchant: Merchant, tx: WalletTransaction) {
    const url = webhookUrlFor(merchant.MerchantSettings, "transaction.debit")
    if (url === undefined) return yield* unavailable(noWebhookUrl)
    const now = yield* Clock.currentTimeMillis
    const body = JSON.stringify(toWebhookBody(tx, new Date(now).toISOString()))
    const answer = yield* signed.send({ merchantId: merchant.id, url, messageId: tx.transactionId, body, timeoutMs }).pipe(
      Effect.mapError((failure) =>
        failure._tag === "TimedOut"
          ? unavailable(`the operator's wallet did not answer within ${timeoutMs} ms`)
          : failure._tag === "KeysUnavailable"
          ? unavailable("the merchant's signing keys could not be read")
          : unavailable(failure.detail)
      )
    )
    if (answer.status >= 400 && answer.status < 500) return yield* new BetRefused({ operatorStatus: answer.status })
    if (answer.status < 200 || answer.status >= 300) {
      return yield* unavailable(`the operator's wallet answered HTTP ${answer.status}`)
    }
    const decoded = decodeAnswer(answer.body)
    if (decoded._tag === "Failure") return yield* unavailable("the operator's wallet answered a body without a balance")
    return { balance: decoded.value.balance }
  })
  return WalletClient.of({ debit })
})

/** The wallet client with a time-out of `timeoutMs` (`WEBHOOK_TIMEOUT_MS`). */
export const layer = (timeoutMs: number): Layer.Layer<WalletClient, never, SignedPost> =>
  Layer.effect(WalletClient, make(timeoutMs))
