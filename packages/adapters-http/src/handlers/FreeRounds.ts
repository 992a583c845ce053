import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { cancelFreeRounds, FreeRounds, GameCatalog, grantFreeRounds, Ids, listFreeRounds } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Problem from "@gateway/client/api/Problem"
import { CurrentMerchant } from "@gateway/client/api/Security"
import * as Ports from "../Ports.ts"

/** Free rounds of the key's merchant (CONTRACT §13): grant, list, cancel. */
export const FreeRoundsLive = HttpApiBuilder.group(
  Api,
  "freeRounds",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(FreeRounds, GameCatalog, Ids)
    return handlers.handleAll({
      grant: ({ payload }) =>
        Effect.flatMap(CurrentMerchant, (merchant) => grantFreeRounds(merchant, payload)).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        ),
      list: ({ query: { playerId, page, limit } }) =>
        Effect.flatMap(CurrentMerchant, (merchant) => listFreeRounds(merchant, playerId, { page, limit })).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        ),
      cancel: ({ params }) =>
        Effect.flatMap(CurrentMerchant, (merchant) => cancelFreeRounds(merchant, params.id)).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        )
    })
  })
)
