import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { checkOperatorUrls, MerchantRepo, OperatorUrlPolicy } from "@gateway/domain"
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
    const urlPolicy = yield* Effect.context<OperatorUrlPolicy>()
    return handlers.handleAll({
      get: () => Effect.map(CurrentMerchant, (merchant) => merchant.MerchantSettings),
      change: ({ payload }) =>
        checkOperatorUrls(payload).pipe(
          Effect.provideContext(urlPolicy),
          Effect.andThen(CurrentMerchant),
          Effect.flatMap((merchant) => merchants.changeSettings(merchant.id, settingsChange(payload))),
          Effect.mapError(Problem.fromDomain)
        )
    })
  })
)
