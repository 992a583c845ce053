import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { changeSettings, MerchantRepo, OperatorUrlPolicy, RevenueShare } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Ports from "../Ports.ts"
import * as Problem from "@gateway/client/api/Problem"
import { CurrentMerchant } from "@gateway/client/api/Security"

/**
 * An operator's own settings, by its API key. The five revenue shares are
 * the provider admins' to set: a change that gives one is 403 before
 * anything is read or saved ({@link RevenueShare.refuseOwnShareChange}).
 */
export const SettingsLive = HttpApiBuilder.group(
  Api,
  "settings",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(MerchantRepo, OperatorUrlPolicy)
    return handlers.handleAll({
      get: () => Effect.map(CurrentMerchant, (merchant) => merchant.MerchantSettings),
      change: ({ payload }) =>
        Effect.gen(function*() {
          const refused = RevenueShare.refuseOwnShareChange(payload)
          if (refused !== undefined) return yield* refused
          return yield* changeSettings((yield* CurrentMerchant).id, payload)
        }).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        )
    })
  })
)
