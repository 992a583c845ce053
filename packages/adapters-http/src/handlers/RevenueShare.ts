import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { MerchantRepo, Reports, revenueShare, revenueShares } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Problem from "@gateway/client/api/Problem"
import * as Ports from "../Ports.ts"

/** Each party's part of a merchant's GGR, for the provider's admins. */
export const RevenueShareLive = HttpApiBuilder.group(
  Api,
  "revenueShare",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(MerchantRepo, Reports)
    return handlers.handleAll({
      merchant: ({ params, query }) => revenueShare(params.id, query).pipe(provide, Effect.mapError(Problem.fromDomain)),
      list: ({ query: { from, to, ...merchants } }) =>
        revenueShares(merchants, { from, to }).pipe(provide, Effect.mapError(Problem.fromDomain))
    })
  })
)
