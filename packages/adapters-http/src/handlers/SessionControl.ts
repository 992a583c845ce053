import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { GameSessionRepo, terminateSessions } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import { CurrentMerchant } from "@gateway/client/api/Security"
import * as Ports from "../Ports.ts"

/** Session control: an operator ends its own players' game sessions (never another merchant's). */
export const SessionControlLive = HttpApiBuilder.group(
  Api,
  "sessionControl",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(GameSessionRepo)
    return handlers.handleAll({
      terminate: ({ payload }) =>
        Effect.flatMap(CurrentMerchant, (merchant) => terminateSessions(merchant.id, payload).pipe(provide))
    })
  })
)
