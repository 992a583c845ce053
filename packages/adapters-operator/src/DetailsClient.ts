import { Config, Effect, Layer, Schema } from "effect"
import { OperatorBadResponse, OperatorTimeout } from "@gateway/domain/Operator"
import { PlayerDetails, PlayerRejected } from "@gateway/domain/Player"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { OperatorDetails } from "@gateway/domain/ports/OperatorDetails"
import { randomUUID } from "node:crypto"
import { OperatorHttp } from "./OperatorHttp.ts"
import { signMessage } from "./Signature.ts"
import * as SigningKeyCache from "./SigningKeyCache.ts"

const decodeDetails = Schema.decodeUnknownExit(Schema.fromJsonString(PlayerDetails))

/**
 * The operator's Details URL: a signed POST of `{playerId, sessionId, gameId,
 * mode, currency?}`, answered within `timeoutMs` or failed with
 * OperatorTimeout (the request is aborted). 4xx → PlayerRejected; 5xx,
 * redirects, unreachable hosts and bodies that do not decode →
 * OperatorBadResponse.
 */
export const make = (timeoutMs: number) =>
  Effect.gen(function*() {
    const http = yield* OperatorHttp
    const merchants = yield* MerchantRepo
    const keysOf = SigningKeyCache.make(merchants)
    return OperatorDetails.of({
      fetch: (merchant, url, request) =>
        Effect.gen(function*() {
          const secrets = yield* Effect.orDie(keysOf(merchant.id))
          const body = JSON.stringify(request)
          const headers = signMessage(secrets, `msg_${randomUUID()}`, Math.floor(Date.now() / 1000), body)
          const answer = yield* http.post(url, { ...headers }, body).pipe(
            Effect.timeoutOrElse({
              duration: timeoutMs,
              orElse: () => Effect.fail(new OperatorTimeout({ timeoutMs }))
            }),
            Effect.mapError((failure) =>
              failure instanceof OperatorTimeout ? failure : new OperatorBadResponse({ detail: failure.detail })
            )
          )
          if (answer.status >= 400 && answer.status < 500) {
            return yield* new PlayerRejected({
              detail: `the operator's Details URL rejected the player (HTTP ${answer.status})`
            })
          }
          if (answer.status < 200 || answer.status >= 300) {
            return yield* new OperatorBadResponse({
              detail: `the operator's Details URL answered HTTP ${answer.status}`
            })
          }
          const decoded = decodeDetails(answer.body)
          if (decoded._tag === "Failure" || decoded.value.playerId !== request.playerId) {
            return yield* new OperatorBadResponse({
              detail: "the operator's Details URL answered a body that is not the player's details"
            })
          }
          return decoded.value
        })
    })
  })

/** Reads `DETAILS_TIMEOUT_MS` (default 5000). */
export const layerConfig = Layer.effect(
  OperatorDetails,
  Effect.flatMap(
    Config.schema(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60_000 })), "DETAILS_TIMEOUT_MS").pipe(
      Config.withDefault(5000)
    ),
    make
  )
)
