import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  ApiKey,
  ApiKeyRepo,
  AuditLog,
  changeSettingsAudited,
  changeStatusAudited,
  createMerchantAudited,
  issueApiKeyAudited,
  listMerchants,
  MerchantCredentials,
  MerchantRepo,
  OperatorUrlPolicy,
  revokeApiKeyAudited
} from "@gateway/domain"
import type { IssuedApiKey as IssuedKey } from "@gateway/domain/ports/ApiKeyRepo"
import { Api } from "@gateway/client/api/Api"
import * as Ports from "../Ports.ts"
import { IssuedApiKey, MerchantList } from "@gateway/client/api/Merchants"
import * as Problem from "@gateway/client/api/Problem"
import * as Actor from "./Actor.ts"

/** A key just issued, as the API answers it (the full key, shown once). */
export const issuedOf = (issued: IssuedKey) =>
  new IssuedApiKey({
    apiKey: ApiKey.formatApiKey(issued.apiKey),
    prefix: issued.apiKey.prefix,
    slug: issued.apiKey.slug,
    createdAt: DateTime.formatIso(issued.createdAt)
  })

/** Merchant creation and administration; every change is recorded in the audit log with who made it. */
export const MerchantsLive = HttpApiBuilder.group(
  Api,
  "merchants",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(MerchantRepo, MerchantCredentials, ApiKeyRepo, OperatorUrlPolicy, AuditLog)
    const merchants = yield* MerchantRepo
    const actor = yield* Actor.make
    return handlers.handleAll({
      create: ({ payload }) =>
        Effect.flatMap(actor, (who) => createMerchantAudited(payload, who)).pipe(provide, Effect.mapError(Problem.fromDomain)),
      list: ({ query }) => listMerchants(query).pipe(provide, Effect.map((list) => new MerchantList(list))),
      get: ({ params }) => merchants.findById(params.id).pipe(Effect.mapError(Problem.fromDomain)),
      changeSettings: ({ params, payload }) =>
        Effect.flatMap(actor, (who) => changeSettingsAudited(params.id, payload, who)).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        ),
      changeStatus: ({ params, payload }) =>
        Effect.flatMap(actor, (who) => changeStatusAudited(params.id, payload.accountStatus, who)).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        ),
      issueApiKey: ({ params, payload }) =>
        Effect.gen(function*() {
          return issuedOf(yield* issueApiKeyAudited(params.id, payload?.prefix ?? "sv_live", yield* actor))
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      revokeApiKey: ({ params }) =>
        Effect.gen(function*() {
          const revoked = yield* revokeApiKeyAudited(params.id, params.slug, yield* actor).pipe(
            provide,
            Effect.mapError(Problem.fromDomain)
          )
          if (!revoked) {
            return yield* Problem.make("API_KEY_NOT_FOUND", `merchant ${params.id} has no live API key with this slug`)
          }
        })
    })
  })
)
