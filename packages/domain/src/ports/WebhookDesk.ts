import type { Effect } from "effect"
import { Context } from "effect"
import type { PingResult } from "../DeliveryAttempt.ts"
import type { MerchantId } from "../Merchant.ts"

/**
 * What the back office does with a merchant's webhooks beyond the queue:
 * a signed `webhook.test` sent now, its answer awaited (and recorded as a
 * delivery like any other), and the signed headers of a stored attempt.
 */
export class WebhookDesk extends Context.Service<WebhookDesk, {
  /** Sends a `webhook.test` to `url` now, recorded as a delivery of the merchant; the operator's answer. */
  ping(merchantId: MerchantId, url: string): Effect.Effect<PingResult>
  /**
   * The headers of a signed request with this id, timestamp (ms) and body, signed with the merchant's current
   * secrets; empty when they cannot be read.
   */
  requestHeaders(merchantId: MerchantId, id: string, atMs: number, body: string): Effect.Effect<Readonly<Record<string, string>>>
}>()("@gateway/domain/ports/WebhookDesk") {}
