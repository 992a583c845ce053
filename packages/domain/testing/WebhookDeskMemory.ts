import { Effect, Layer } from "effect"
import { PingResult } from "../src/DeliveryAttempt.ts"
import { WebhookDesk } from "../src/ports/WebhookDesk.ts"

/** The WebhookDesk port with no operator behind it: every ping answers 200 `{}` at once; headers are the id and timestamp only. */
export const webhookDesk: Layer.Layer<WebhookDesk> = Layer.succeed(
  WebhookDesk,
  WebhookDesk.of({
    ping: (_merchantId, _url) =>
      Effect.succeed(new PingResult({ deliveryId: "test_memory", delivered: true, durationMs: 0, status: 200, body: "{}" })),
    requestHeaders: (_merchantId, id, atMs) =>
      Effect.succeed({ "webhook-id": id, "webhook-timestamp": String(Math.floor(atMs / 1000)) })
  })
)
