import { Effect, Layer, Schema } from "effect"
import { OperatorBadResponse, OperatorTimeout } from "@gateway/domain/Operator"
import { PlayerDetails, PlayerRejected } from "@gateway/domain/Player"
import { Ids } from "@gateway/domain/ports/Ids"
import { OperatorDetails } from "@gateway/domain/ports/OperatorDetails"
import { unavailableFor } from "../http/OperatorCircuit.ts"
import { SignedPost } from "../http/SignedPost.ts"
import * as Metrics from "../http/CallMetrics.ts"

const decodeDetails = Schema.decodeUnknownExit(Schema.fromJsonString(PlayerDetails))

/**
 * The operator's Details URL: a signed POST of `{playerId, sessionId, gameId,
 * mode, currency?}` with the id `msg_<uuid>`, answered within `timeoutMs` or
 * failed with OperatorTimeout (the request is aborted). 4xx →
 * PlayerRejected; 5xx, redirects, unreachable hosts and bodies that do not
 * decode → OperatorBadResponse; not made while the merchant's circuit is
 * open → OperatorUnavailable. Each call is timed, by merchant and
 * outcome, in `gateway_operator_details_duration_seconds`.
 */
export const make = Effect.fnUntraced(function*(timeoutMs: number) {
  const signed = yield* SignedPost
  const ids = yield* Ids
  return OperatorDetails.of({
    fetch: Effect.fnUntraced(function*(merchant, url, request) {
      const answer = yield* signed.send({
        merchantId: merchant.id,
        url,
        messageId: `msg_${yield* ids.uuid}`,
        body: JSON.stringify(request),
        timeoutMs,
        span: "OperatorDetails.fetch"
      }).pipe(
        Effect.catchTags({
          TimedOut: () => Effect.fail(new OperatorTimeout({ timeoutMs })),
          KeysUnavailable: () => Effect.die(new Error(`the signing keys of merchant ${merchant.id} could not be read`)),
          Refused: (failure) => Effect.fail(new OperatorBadResponse({ detail: failure.detail })),
          Unreachable: (failure) => Effect.fail(new OperatorBadResponse({ detail: failure.detail })),
          Paused: (paused) => Effect.fail(unavailableFor(paused))
        })
      )
      if (answer.status >= 400 && answer.status < 500) {
        return yield* new PlayerRejected({ detail: `the operator's Details URL rejected the player (HTTP ${answer.status})` })
      }
      if (answer.status < 200 || answer.status >= 300) {
        return yield* new OperatorBadResponse({ detail: `the operator's Details URL answered HTTP ${answer.status}` })
      }
      const decoded = decodeDetails(answer.body)
      if (decoded._tag === "Failure" || decoded.value.playerId !== request.playerId) {
        return yield* new OperatorBadResponse({
          detail: "the operator's Details URL answered a body that is not the player's details"
        })
      }
      return decoded.value
    }, (effect, merchant) => Metrics.timeDetails(effect, merchant.id, Metrics.detailsOutcome))
  })
})

/** The Details client with a time-out of `timeoutMs` (`DETAILS_TIMEOUT_MS`). */
export const layer = (timeoutMs: number): Layer.Layer<OperatorDetails, never, SignedPost | Ids> =>
  Layer.effect(OperatorDetails, make(timeoutMs))
