import { Clock, Effect, Layer, Schema } from "effect"
import type { Merchant } from "@gateway/domain/Merchant"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { WalletClient } from "@gateway/domain/ports/WalletClient"
import { BetRefused, toWebhookBody, WalletUnavailable, type WalletTransaction } from "@gateway/domain/Wallet"
import { OperatorHttp } from "./OperatorHttp.ts"
import { signMessage } from "./Signature.ts"
import * as SigningKeyCache from "./SigningKeyCache.ts"
import * as WebhookConfig from "./WebhookConfig.ts"
import { webhookUrlFor } from "@gateway/domain/Wallet"
import { noWebhookUrl } from "./WebhookUrl.ts"

/** The operator's answer to an accepted debit: its balance, a decimal string (a float is refused). */
const DebitAnswer = Schema.Struct({
  balance: Schema.String.check(
    Schema.isPattern(/^-?(0|[1-9][0-9]{0,17})(\.[0-9]{1,8})?$/, { message: "must be a decimal string" })
  )
})
const decodeAnswer = Schema.decodeUnknownExit(Schema.fromJsonString(DebitAnswer))

/**
 * The synchronous debit (CONTRACT §5): one signed POST of the
 * `transaction.debit` body (`webhook-id` = transactionId) to the merchant's
 * debit URL, never retried. 2xx with `{balance}` → accepted; 4xx → BetRefused;
 * time-out (`timeoutMs`, the request is aborted), 3xx, 5xx, network failure,
 * a refused address, an unparsable 2xx or no webhook URL configured →
 * WalletUnavailable (the use case rejects the bet and queues a refund).
 */
export const make = Effect.fnUntraced(function*(timeoutMs: number) {
  const http = yield* OperatorHttp
  const merchants = yield* MerchantRepo
  const keysOf = SigningKeyCache.make(merchants)
  const unavailable = (detail: string) => new WalletUnavailable({ detail })
  const debit = Effect.fnUntraced(function*(merchant: Merchant, tx: WalletTransaction) {
    const url = webhookUrlFor(merchant.MerchantSettings, "transaction.debit")
    if (url === undefined) return yield* unavailable(noWebhookUrl)
    const secrets = yield* keysOf(merchant.id).pipe(
      Effect.mapError(() => unavailable("the merchant's signing keys could not be read"))
    )
    const now = yield* Clock.currentTimeMillis
    const body = JSON.stringify(toWebhookBody(tx, new Date(now).toISOString()))
    const headers = signMessage(secrets, tx.transactionId, Math.floor(now / 1000), body)
    const answer = yield* http.post(url, { ...headers }, body).pipe(
      Effect.timeoutOrElse({
        duration: timeoutMs,
        orElse: () => Effect.fail(unavailable(`the operator's wallet did not answer within ${timeoutMs} ms`))
      }),
      Effect.mapError((failure) => failure instanceof WalletUnavailable ? failure : unavailable(failure.detail))
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

/** The wallet client with a time-out of `timeoutMs`. */
export const layer = (timeoutMs: number): Layer.Layer<WalletClient, never, OperatorHttp | MerchantRepo> =>
  Layer.effect(WalletClient, make(timeoutMs))

/** Reads `WEBHOOK_TIMEOUT_MS` (default 5000). */
export const layerConfig = Layer.effect(WalletClient, Effect.flatMap(WebhookConfig.timeoutMs, make))
