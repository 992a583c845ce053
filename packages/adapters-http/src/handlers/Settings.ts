import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { changeSettings, MerchantRepo, OperatorUrlPolicy } from "@gateway/domain"
import { Api } from "../api/Api.ts"
import * as Ports from "../Ports.ts"
import * as Problem from "../api/Problem.ts"
import { CurrentMerchant } from "../api/Security.ts"

/** An operator's own settings, by its API key. */
export const SettingsLive = HttpApiBuilder.group(
  Api,
  "settings",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(MerchantRepo, OperatorUrlPolicy)
    return handlers.handleAll({
      get: () => Effect.map(CurrentMerchant, (merchant) => merchant.MerchantSettings),
      change: ({ payload }) =>
        Effect.flatMap(CurrentMerchant, (merchant) => changeSettings(merchant.id, payload)).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        )
    })
  })
)
