import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { MerchantRepo } from "@gateway/domain"
import { Api } from "../Api.ts"
import { FailedDeliveries, FailedDelivery, maxListed, TestQueued } from "../api/Deliveries.ts"
import * as Problem from "../Problem.ts"
import { type FailedMessage, WebhookDeliveries } from "../WebhookDeliveries.ts"

const toWire = (m: FailedMessage) =>
  new FailedDelivery({
    id: m.id,
    merchantId: m.merchantId,
    type: m.type,
    attempts: m.attempts,
    lastError: m.lastError,
    ...(m.lastStatus === undefined ? {} : { lastStatus: m.lastStatus }),
    createdAt: DateTime.formatIso(m.createdAt),
    failedAt: DateTime.formatIso(m.failedAt)
  })

/** The admin side of the webhook outbox. Every endpoint checks that the merchant exists first. */
export const DeliveriesLive = HttpApiBuilder.group(
  Api,
  "deliveries",
  Effect.fn(function*(handlers) {
    const merchants = yield* MerchantRepo
    const deliveries = yield* WebhookDeliveries
    const exists = (id: Parameters<typeof merchants.findById>[0]) =>
      merchants.findById(id).pipe(Effect.mapError(Problem.fromDomain))
    return handlers.handleAll({
      listFailed: ({ params }) =>
        exists(params.id).pipe(
          Effect.andThen(deliveries.listFailed(params.id, maxListed)),
          Effect.map((list) => new FailedDeliveries({ data: list.map(toWire) }))
        ),
      redeliver: ({ params }) =>
        Effect.gen(function*() {
          yield* exists(params.id)
          const found = yield* deliveries.redeliver(params.id, params.deliveryId)
          if (!found) {
            return yield* Problem.make(
              "DELIVERY_NOT_FOUND",
              `merchant ${params.id} has no failed webhook delivery with this id`
            )
          }
        }),
      test: ({ params }) =>
        exists(params.id).pipe(
          Effect.andThen(deliveries.enqueueTest(params.id)),
          Effect.map((deliveryId) => new TestQueued({ deliveryId }))
        )
    })
  })
)
