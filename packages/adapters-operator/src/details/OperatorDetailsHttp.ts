import { Effect, Layer, Schema } from "effect"
import type { Merchant } from "@gateway/domain/Merchant"
import { OperatorBadResponse, OperatorTimeout } from "@gateway/domain/Operator"
import { PlayerDetails, PlayerRejected } from "@gateway/domain/Player"
import { Ids } from "@gateway/domain/ports/Ids"
import { OperatorDetails } from "@gateway/domain/ports/OperatorDetails"
import { ShopDetails, ShopRejected } from "@gateway/domain/Shop"
import { unavailableFor } from "../http/OperatorCircuit.ts"
import { SignedPost } from "../http/SignedPost.ts"
import * as Metrics from "../http/CallMetrics.ts"

const decodeDetails = Schema.decodeUnknownExit(Schema.fromJsonString(PlayerDetails))
const decodeShop = Schema.decodeUnknownExit(Schema.fromJsonString(ShopDetails))

/**
 * The operator's Details URLs: a signed POST of the request with the id
 * `msg_<uuid>`, answered within `timeoutMs` or failed with OperatorTimeout
 * (the request is aborted). The player's (`userDetailsUrl`, `{playerId,
 * sessionId, gameId, mode, currency?}`): 4xx → PlayerRejected. The shop's
 * (`shopDetailsUrl`, `{shopId, sessionId, gameId, mode}`, CONTRACT §11): 4xx
 * → ShopRejected. For both, 5xx, redirects, unreachable hosts and bodies
 * that do not decode (or describe another player or shop) →
 * OperatorBadResponse; not made while the merchant's circuit is open →
 * OperatorUnavailable. Each call is timed, by merchant and outcome, in
 * `gateway_operator_details_duration_seconds`.
 */
export const make = Effect.fnUntraced(function*(timeoutMs: number) {
  const signed = yield* SignedPost
  const ids = yield* Ids

  const call = Effect.fnUntraced(function*(
    merchant: Merchant,
    url: string,
    body: string,
    which: "userDetailsUrl" | "shopDetailsUrl"
  ) {
    const answer = yield* signed.send({
      merchantId: merchant.id,
      url,
      messageId: `msg_${yield* ids.uuid}`,
      body,
      timeoutMs,
      span: which === "userDetailsUrl" ? "OperatorDetails.fetch" : "OperatorDetails.shop"
    }).pipe(
      Effect.catchTags({
        TimedOut: () =>
          Effect.fail(new OperatorTimeout(which === "userDetailsUrl" ? { timeoutMs } : { timeoutMs, url: which })),
        KeysUnavailable: () => Effect.die(new Error(`the signing keys of merchant ${merchant.id} could not be read`)),
        Refused: (failure) => Effect.fail(new OperatorBadResponse({ detail: failure.detail })),
        Unreachable: (failure) => Effect.fail(new OperatorBadResponse({ detail: failure.detail })),
        Paused: (paused) => Effect.fail(unavailableFor(paused))
      })
    )
    if (answer.status >= 300 && answer.status < 400 || answer.status < 200 || answer.status >= 500) {
      const name = which === "userDetailsUrl" ? "Details URL" : "shop Details URL"
      return yield* new OperatorBadResponse({ detail: `the operator's ${name} answered HTTP ${answer.status}` })
    }
    return answer
  })

  return OperatorDetails.of({
    fetch: Effect.fnUntraced(function*(merchant, url, request) {
      const answer = yield* call(merchant, url, JSON.stringify(request), "userDetailsUrl")
      if (answer.status >= 400) {
        return yield* new PlayerRejected({ detail: `the operator's Details URL rejected the player (HTTP ${answer.status})` })
      }
      const decoded = decodeDetails(answer.body)
      if (decoded._tag === "Failure" || decoded.value.playerId !== request.playerId) {
        return yield* new OperatorBadResponse({
          detail: "the operator's Details URL answered a body that is not the player's details"
        })
      }
      return decoded.value
    }, (effect, merchant) => Metrics.timeDetails(effect, merchant.id, Metrics.detailsOutcome)),
    shop: Effect.fnUntraced(function*(merchant, url, request) {
      const answer = yield* call(merchant, url, JSON.stringify(request), "shopDetailsUrl")
      if (answer.status >= 400) {
        return yield* new ShopRejected({ detail: `the operator's shop Details URL rejected the shop (HTTP ${answer.status})` })
      }
      const decoded = decodeShop(answer.body)
      if (decoded._tag === "Failure" || decoded.value.shopId !== request.shopId) {
        return yield* new OperatorBadResponse({
          detail: "the operator's shop Details URL answered a body that is not the shop's details"
        })
      }
      return decoded.value
    }, (effect, merchant) => Metrics.timeDetails(effect, merchant.id, Metrics.detailsOutcome))
  })
})

/** The Details client with a time-out of `timeoutMs` (`DETAILS_TIMEOUT_MS`). */
export const layer = (timeoutMs: number): Layer.Layer<OperatorDetails, never, SignedPost | Ids> =>
  Layer.effect(OperatorDetails, make(timeoutMs))
