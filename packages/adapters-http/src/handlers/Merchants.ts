import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  ApiKey,
  ApiKeyRepo,
  changeSettings,
  createMerchant,
  listMerchants,
  MerchantCredentials,
  MerchantRepo,
  OperatorUrlPolicy
} from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Ports from "../Ports.ts"
import { IssuedApiKey, MerchantList } from "@gateway/client/api/Merchants"
import * as Problem from "@gateway/client/api/Problem"

/** Merchant creation and administration. */
export const MerchantsLive = HttpApiBuilder.group(
  Api,
  "merchants",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(MerchantRepo, MerchantCredentials, ApiKeyRepo, OperatorUrlPolicy)
    const merchants = yield* MerchantRepo
    const keys = yield* ApiKeyRepo
    return handlers.handleAll({
      create: ({ payload }) =>
        createMerchant(payload).pipe(provide, Effect.mapError(Problem.fromDomain)),
      list: ({ query }) => listMerchants(query).pipe(provide, Effect.map((list) => new MerchantList(list))),
      get: ({ params }) => merchants.findById(params.id).pipe(Effect.mapError(Problem.fromDomain)),
      changeSettings: ({ params, payload }) =>
        changeSettings(params.id, payload).pipe(provide, Effect.mapError(Problem.fromDomain)),
      changeStatus: ({ params, payload }) =>
        merchants.changeStatus(params.id, payload.accountStatus).pipe(Effect.mapError(Problem.fromDomain)),
      issueApiKey: ({ params, payload }) =>
        Effect.gen(function*() {
          yield* merchants.findById(params.id)
          const issued = yield* keys.issue(params.id, payload?.prefix ?? "sv_live")
          return new IssuedApiKey({
            apiKey: ApiKey.formatApiKey(issued.apiKey),
            prefix: issued.apiKey.prefix,
            slug: issued.apiKey.slug,
            createdAt: DateTime.formatIso(issued.createdAt)
          })
        }).pipe(Effect.mapError(Problem.fromDomain)),
      revokeApiKey: ({ params }) =>
        Effect.gen(function*() {
          yield* merchants.findById(params.id).pipe(Effect.mapError(Problem.fromDomain))
          const revoked = yield* keys.revoke(params.id, params.slug)
          if (!revoked) {
            return yield* Problem.make("API_KEY_NOT_FOUND", `merchant ${params.id} has no live API key with this slug`)
          }
        })
    })
  })
)
