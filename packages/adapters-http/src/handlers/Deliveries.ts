import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { DeliveryQueue, MerchantRepo } from "@gateway/domain"
import { Api } from "../api/Api.ts"
import { FailedDeliveries, maxListed, TestQueued } from "../api/Deliveries.ts"
import * as Problem from "../api/Problem.ts"

/** The admin side of the webhook outbox. Every endpoint checks that the merchant exists first. */
export const DeliveriesLive = HttpApiBuilder.group(
  Api,
  "deliveries",
  Effect.fn(function*(handlers) {
    const merchants = yield* MerchantRepo
    const deliveries = yield* DeliveryQueue
    const exists = (id: Parameters<typeof merchants.findById>[0]) =>
      merchants.findById(id).pipe(Effect.mapError(Problem.fromDomain))
    return handlers.handleAll({
      listFailed: ({ params }) =>
        exists(params.id).pipe(
          Effect.andThen(deliveries.listFailed(params.id, maxListed)),
          Effect.map((data) => new FailedDeliveries({ data }))
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
