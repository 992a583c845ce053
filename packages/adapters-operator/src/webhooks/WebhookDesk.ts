import { Clock, Effect, Layer, Random } from "effect"
import { PingResult } from "@gateway/domain/DeliveryAttempt"
import type { MerchantId } from "@gateway/domain/Merchant"
import { DeliveryQueue } from "@gateway/domain/ports/DeliveryQueue"
import { WebhookDesk } from "@gateway/domain/ports/WebhookDesk"
import { nextDelay } from "@gateway/domain/RetrySchedule"
import { SignedPost } from "../http/SignedPost.ts"
import { outcomeOf } from "./DeliveryWorker.ts"
import { MerchantSigningKeys } from "./MerchantSigningKeys.ts"
import { signMessage } from "./Signature.ts"

/** How the desk sends: the worker's time-out and retry schedule. */
export interface DeskOptions {
  readonly timeoutMs: number
  readonly schedule: ReadonlyArray<number>
}

const pausedError = "not sent: the operator kept failing and its circuit breaker is open"

/**
 * {@link WebhookDesk} over the signed POST: a ping is queued leased to this
 * call (no worker takes it meanwhile), sent at once, and its outcome recorded
 * as the worker records one (delivered, or retried on the schedule).
 */
export const layer = (options: DeskOptions): Layer.Layer<WebhookDesk, never, DeliveryQueue | SignedPost | MerchantSigningKeys> =>
  Layer.effect(
    WebhookDesk,
    Effect.gen(function*() {
      const queue = yield* DeliveryQueue
      const signed = yield* SignedPost
      const keys = yield* MerchantSigningKeys
      const ping = Effect.fn("WebhookDesk.ping")(function*(merchantId: MerchantId, url: string) {
        const delivery = yield* queue.startTest(merchantId, options.timeoutMs * 2 + 5000)
        const at = yield* Clock.currentTimeMillis
        const sent = yield* Effect.result(signed.send({
          merchantId, url, messageId: delivery.id, body: delivery.body, timeoutMs: options.timeoutMs, timestampMs: at
        }))
        const end = yield* Clock.currentTimeMillis
        if (sent._tag === "Failure" && sent.failure._tag === "Paused") {
          yield* queue.postpone(delivery.id, sent.failure.retryAfterMs / 1000, pausedError)
          return new PingResult({ deliveryId: delivery.id, delivered: false, durationMs: 0, error: pausedError })
        }
        const outcome = outcomeOf(
          url, at, end, options.timeoutMs,
          sent._tag === "Success" ? { answer: sent.success } : { failure: sent.failure as Exclude<typeof sent.failure, { _tag: "Paused" }> }
        )
        if (outcome._tag === "Delivered") yield* queue.delivered(delivery.id, outcome.record)
        else {
          const delay = nextDelay(options.schedule, 1, yield* Random.next, outcome.retryAfter)
          yield* delay === undefined
            ? queue.failed(delivery.id, outcome.error, outcome.status, outcome.record)
            : queue.retryLater(delivery.id, delay, outcome.error, outcome.status, outcome.record)
        }
        const record = outcome.record
        return new PingResult({
          deliveryId: delivery.id,
          delivered: outcome._tag === "Delivered",
          durationMs: Math.round(record?.durationMs ?? end - at),
          ...(record?.status === undefined ? {} : { status: record.status }),
          ...(record?.body === undefined ? {} : { body: record.body }),
          ...(outcome._tag === "Delivered" ? {} : { error: outcome.error })
        })
      })
      const requestHeaders = (merchantId: MerchantId, id: string, atMs: number, body: string) =>
        keys.get(merchantId).pipe(
          Effect.map((found): Readonly<Record<string, string>> => ({
            "content-type": "application/json",
            ...signMessage(found, id, Math.floor(atMs / 1000), body, atMs)
          })),
          Effect.orElseSucceed((): Readonly<Record<string, string>> => ({}))
        )
      return WebhookDesk.of({ ping, requestHeaders })
    })
  )
