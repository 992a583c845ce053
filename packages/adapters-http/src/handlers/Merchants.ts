import { DateTime, Effect, Result } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  ApiKey,
  ApiKeyRepo,
  checkOperatorUrls,
  createMerchant,
  MerchantCredentials,
  MerchantRepo,
  MerchantSettings,
  OperatorUrlPolicy,
  Validation
} from "@gateway/domain"
import { Api } from "../Api.ts"
import { IssuedApiKey } from "../api/Merchants.ts"
import * as Problem from "../Problem.ts"

/** A settings change that keeps stakes ordered, as `MerchantRepo.changeSettings` applies it. */
export const settingsChange = (change: MerchantSettings.SettingsChange) =>
(current: MerchantSettings.SettingsValues): Result.Result<MerchantSettings.SettingsValues, Validation.ValidationFailed> => {
  const next = MerchantSettings.applyChange(current, change)
  return MerchantSettings.stakesAreOrdered(next)
    ? Result.succeed(next)
    : Result.fail(new Validation.ValidationFailed({ field: "minimumStake", detail: "must not be greater than maximumStake" }))
}

/** Merchant creation and administration. */
export const MerchantsLive = HttpApiBuilder.group(
  Api,
  "merchants",
  Effect.fn(function*(handlers) {
    const ports = yield* Effect.context<MerchantRepo | MerchantCredentials | ApiKeyRepo>()
    const merchants = yield* MerchantRepo
    const keys = yield* ApiKeyRepo
    const urlPolicy = yield* Effect.context<OperatorUrlPolicy>()
    return handlers.handleAll({
      create: ({ payload }) =>
        createMerchant(payload).pipe(Effect.provideContext(ports), Effect.mapError(Problem.fromDomain)),
      get: ({ params }) => merchants.findById(params.id).pipe(Effect.mapError(Problem.fromDomain)),
      changeSettings: ({ params, payload }) =>
        checkOperatorUrls(payload).pipe(
          Effect.provideContext(urlPolicy),
          Effect.andThen(merchants.changeSettings(params.id, settingsChange(payload))),
          Effect.mapError(Problem.fromDomain)
        ),
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
