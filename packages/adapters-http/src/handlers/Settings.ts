import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AuditLog, changeSettingsAudited, MerchantRepo, OperatorUrlPolicy, RevenueShare } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Ports from "../Ports.ts"
import * as Problem from "@gateway/client/api/Problem"
import { CurrentMerchant } from "@gateway/client/api/Security"
import * as Actor from "./Actor.ts"

/**
 * An operator's own settings, by its API key. The five revenue shares are
 * the provider admins' to set: a change that gives one is 403 before
 * anything is read or saved ({@link RevenueShare.refuseOwnShareChange}).
 * A change is audited as made by `api-key` from the client's address.
 */
export const SettingsLive = HttpApiBuilder.group(
  Api,
  "settings",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(MerchantRepo, OperatorUrlPolicy, AuditLog)
    const actor = yield* Actor.makeOperator
    return handlers.handleAll({
      get: () => Effect.map(CurrentMerchant, (merchant) => merchant.MerchantSettings),
      change: ({ payload }) =>
        Effect.gen(function*() {
          const refused = RevenueShare.refuseOwnShareChange(payload)
          if (refused !== undefined) return yield* refused
          return yield* changeSettingsAudited((yield* CurrentMerchant).id, payload, yield* actor)
        }).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        )
    })
  })
)
