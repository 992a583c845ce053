import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { MerchantRepo } from "@gateway/domain"
import { Api } from "../Api.ts"
import { CurrentMerchant } from "../api/Security.ts"
import * as Problem from "../Problem.ts"
import { settingsChange } from "./Merchants.ts"

/** An operator's own settings, by its API key. */
export const SettingsLive = HttpApiBuilder.group(
  Api,
  "settings",
  Effect.fn(function*(handlers) {
    const merchants = yield* MerchantRepo
    return handlers.handleAll({
      get: () => Effect.map(CurrentMerchant, (merchant) => merchant.MerchantSettings),
      change: ({ payload }) =>
        Effect.flatMap(CurrentMerchant, (merchant) => merchants.changeSettings(merchant.id, settingsChange(payload))).pipe(
          Effect.mapError(Problem.fromDomain)
        )
    })
  })
)
