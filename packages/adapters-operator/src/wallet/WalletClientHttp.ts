import { Clock, Effect, Layer, Schema } from "effect"
import { noWebhookUrl } from "@gateway/domain/Delivery"
import type { Merchant } from "@gateway/domain/Merchant"
import { DecimalString } from "@gateway/domain/Player"
import { WalletClient } from "@gateway/domain/ports/WalletClient"
import { BetRefused, toWebhookBody, type WalletTransaction, WalletUnavailable, webhookUrlFor } from "@gateway/domain/Wallet"
import type { OperatorUnavailable } from "@gateway/domain/Operator"
import { unavailableFor } from "../http/OperatorCircuit.ts"
import { type SendFailure, SignedPost } from "../http/SignedPost.ts"
import * as Metrics from "../http/CallMetrics.ts"

/** The operator's answer to an accepted debit: its balance, a decimal string (a float is refused). */
const decodeAnswer = Schema.decodeUnknownExit(Schema.fromJsonString(Schema.Struct({ balance: DecimalString })))

const unavailable = (detail: string) => new WalletUnavailable({ detail })

/** What a debit fails with before its send failure becomes a {@link WalletUnavailable}. */
type DebitFailure = BetRefused | WalletUnavailable | SendFailure

/** The outcome label of a failed debit, read from the failure's tag (a time-out is still told apart here). */
const outcomeOf = (failure: DebitFailure): string =>
  failure._tag === "BetRefused"
    ? "refused"
    : failure._tag === "TimedOut"
    ? "timeout"
    : failure._tag === "Paused"
    ? "paused"
    : "unavailable"

/**
 * The synchronous debit (CONTRACT §5): one signed POST of the
 * `transaction.debit` body (`webhook-id` = transactionId) to the merchant's
 * debit URL, never retried. 2xx with `{balance}` → accepted; 4xx → BetRefused;
 * time-out (`timeoutMs`, the request is aborted), 3xx, 5xx, network failure,
 * a refused address, an unparsable 2xx or no webhook URL configured →
 * WalletUnavailable (the use case rejects the bet and queues a refund); not
 * sent while the merchant's circuit is open → OperatorUnavailable (nothing to
 * refund).
 * Each debit is timed, by merchant and outcome, in
 * `gateway_wallet_debit_duration_seconds`.
 */
export const make = Effect.fnUntraced(function*(timeoutMs: number) {
  const signed = yield* SignedPost
  const timedOut = `the operator's wallet did not answer within ${timeoutMs} ms`
  const toWalletError = (failure: DebitFailure): BetRefused | WalletUnavailable | OperatorUnavailable =>
    failure._tag === "Paused"
      ? unavailableFor(failure)
      : failure._tag === "TimedOut"
      ? unavailable(timedOut)
      : failure._tag === "KeysUnavailable"
      ? unavailable("the merchant's signing keys could not be read")
      : failure._tag === "Refused" || failure._tag === "Unreachable"
      ? unavailable(failure.detail)
      : failure
  const debit = Effect.fnUntraced(function*(merchant: Merchant, tx: WalletTransaction) {
    const url = webhookUrlFor(merchant.MerchantSettings, "transaction.debit")
    if (url === undefined) return yield* unavailable(noWebhookUrl)
    const now = yield* Clock.currentTimeMillis
    const body = JSON.stringify(toWebhookBody(tx, new Date(now).toISOString()))
    const answer = yield* signed.send({
      merchantId: merchant.id,
      url,
      messageId: tx.transactionId,
      body,
      timeoutMs,
      span: "WalletClient.debit"
    })
    if (answer.status >= 400 && answer.status < 500) return yield* new BetRefused({ operatorStatus: answer.status })
    if (answer.status < 200 || answer.status >= 300) {
      return yield* unavailable(`the operator's wallet answered HTTP ${answer.status}`)
    }
    const decoded = decodeAnswer(answer.body)
    if (decoded._tag === "Failure") return yield* unavailable("the operator's wallet answered a body without a balance")
    return { balance: decoded.value.balance }
  }, (effect, merchant) => Metrics.timeDebit(effect, merchant.id, outcomeOf), Effect.mapError(toWalletError))
  return WalletClient.of({ debit })
})

/** The wallet client with a time-out of `timeoutMs` (`WEBHOOK_TIMEOUT_MS`). */
export const layer = (timeoutMs: number): Layer.Layer<WalletClient, never, SignedPost> =>
  Layer.effect(WalletClient, make(timeoutMs))
