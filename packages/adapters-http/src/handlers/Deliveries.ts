import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { DeliveryQueue, MerchantRepo, Wallet } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import { Deliveries, maxListed, TestQueued } from "@gateway/client/api/Deliveries"
import * as Problem from "@gateway/client/api/Problem"

/**
 * The admin side of the webhook outbox. Every endpoint checks that the
 * merchant exists first; a test ping needs a URL to go to (else 422 at once,
 * not a day of retries to nowhere).
 */
export const DeliveriesLive = HttpApiBuilder.group(
  Api,
  "deliveries",
  Effect.fn(function*(handlers) {
    const merchants = yield* MerchantRepo
    const deliveries = yield* DeliveryQueue
    const exists = (id: Parameters<typeof merchants.findById>[0]) =>
      merchants.findById(id).pipe(Effect.mapError(Problem.fromDomain))
    return handlers.handleAll({
      list: ({ params, query }) =>
        exists(params.id).pipe(
          Effect.andThen(deliveries.list(params.id, query.status, maxListed)),
          Effect.map((data) => new Deliveries({ data }))
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
        Effect.gen(function*() {
          const merchant = yield* exists(params.id)
          if (Wallet.webhookUrlFor(merchant.MerchantSettings, "webhook.test") === undefined) {
            return yield* Problem.make(
              "WEBHOOK_URL_NOT_SET",
              `merchant ${params.id} has no webhook URL to ping; set webhookUrl (or creditWebhookUrl) in its settings`
            )
          }
          return new TestQueued({ deliveryId: yield* deliveries.enqueueTest(params.id) })
        })
    })
  })
)
