import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Delivery, Merchant, Validation } from "@gateway/domain"
import * as Problem from "./Problem.ts"
import { AdminAuth } from "./Security.ts"

/** The answer of the deliveries list. */
export class Deliveries extends Schema.Class<Deliveries>("@gateway/adapters-http/Deliveries")(Schema.Struct({
  data: Schema.Array(Delivery.ListedDelivery).annotate({ description: "The messages, newest first" })
}).annotate({
  identifier: "Deliveries",
  description: "The answer of the deliveries list."
})) {}

/** The answer of a webhook test: the id of the queued `webhook.test` message (its `webhook-id`). */
export class TestQueued extends Schema.Class<TestQueued>("@gateway/adapters-http/TestQueued")(Schema.Struct({
  deliveryId: Schema.String.annotate({ description: "The queued message's id (its `webhook-id`)" })
}).annotate({
  identifier: "TestQueued",
  description: "The answer of a webhook test: the id of the queued `webhook.test` message (its `webhook-id`)."
})) {}

/** The largest number of deliveries listed at once (newest first). */
export const maxListed = 500

const id = { id: Merchant.MerchantId }

/** The wallet webhook outbox of a merchant: failed messages, redelivery and a test ping (bearer). */
export class DeliveriesApi extends HttpApiGroup.make("deliveries")
  .add(
    HttpApiEndpoint.get("list", "/merchants/:id/webhook-deliveries", {
      params: id,
      query: {
        status: Schema.optionalKey(Delivery.DeliveryStatus.annotate({
          description: "`pending` (waiting to be sent or retried), `delivered` or `failed` (retries used up); " +
            "absent: every status"
        }))
      },
      success: Deliveries,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND")
    })
      .annotate(OpenApi.Summary, "List webhook deliveries by status (scope `read:users`)")
      .annotate(
        OpenApi.Description,
        `The merchant's outbox messages of a \`status\` (every status without one), newest first, at most ${maxListed}, ` +
          "with their attempts, last error and HTTP status, and when they are due, were delivered or failed. " +
          "Another `status`: 400 VALIDATION_FAILED."
      ),
    HttpApiEndpoint.post("redeliver", "/merchants/:id/webhook-deliveries/:deliveryId/redeliver", {
      params: { ...id, deliveryId: Schema.String.check(Schema.isMaxLength(64), Validation.isStorableText) },
      success: HttpApiSchema.Accepted.annotate({ description: "Queued again, due now; no body" }),
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND", "DELIVERY_NOT_FOUND")
    })
      .annotate(OpenApi.Summary, "Redeliver a failed webhook message")
      .annotate(
        OpenApi.Description,
        "Puts the failed message back in the queue, due now, with the same webhook-id and body and a fresh " +
          "retry schedule. Not a failed message of this merchant: 404 DELIVERY_NOT_FOUND."
      ),
    HttpApiEndpoint.post("test", "/merchants/:id/webhook-test", {
      params: id,
      success: TestQueued.pipe(HttpApiSchema.status(202)),
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND", "WEBHOOK_URL_NOT_SET")
    })
      .annotate(OpenApi.Summary, "Send a webhook.test ping")
      .annotate(
        OpenApi.Description,
        "Queues a signed `webhook.test` message, delivered and retried like a credit: to `webhookUrl`, or with " +
          "`isSeperateWebhookUrl` to `creditWebhookUrl` (falling back to `webhookUrl`). A merchant with no such " +
          "URL: 422 WEBHOOK_URL_NOT_SET, nothing queued."
      )
  )
  .middleware(AdminAuth)
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Webhook deliveries")
  .annotate(
    OpenApi.Description,
    "The wallet webhook outbox of a merchant, for the provider's admins (bearer): messages that failed " +
      "every retry, their redelivery, and a signed test ping to the merchant's webhook URL."
  )
{}
