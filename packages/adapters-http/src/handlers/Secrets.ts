import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Audit, AuditLog, type Merchant, MerchantCredentials, MerchantRepo, Paging, revealSecret, rotateSecret } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import { AuditList } from "@gateway/client/api/Audit"
import * as Problem from "@gateway/client/api/Problem"
import * as Ports from "../Ports.ts"
import * as Actor from "./Actor.ts"

/** Rotation and reveal of a merchant's signing secrets, both audited. */
export const SecretsLive = HttpApiBuilder.group(
  Api,
  "secrets",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(MerchantRepo, MerchantCredentials, AuditLog)
    const actor = yield* Actor.make
    return handlers.handleAll({
      rotate: ({ params, payload }) =>
        Effect.flatMap(actor, (who) => rotateSecret(params.id, payload, who)).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        ),
      reveal: ({ params }) =>
        Effect.flatMap(actor, (who) => revealSecret(params.id, who)).pipe(provide, Effect.mapError(Problem.fromDomain))
    })
  })
)

/** A merchant's audit log, newest first. */
export const AuditLive = HttpApiBuilder.group(
  Api,
  "audit",
  Effect.fn(function*(handlers) {
    const merchants = yield* MerchantRepo
    const audit = yield* AuditLog
    /** A page of a merchant's entries (null: the provider's own), or why the page is too deep. */
    const pageOf = (merchantId: Merchant.MerchantId | null, query: Paging.PageRequest) =>
      Effect.gen(function*() {
        const deep = Audit.checkAuditPage(query)
        if (deep !== undefined) return yield* Problem.fromDomain(deep)
        const page = yield* audit.list(merchantId, query)
        return new AuditList({ data: page.entries, meta: Paging.meta(query, page.total) })
      })
    return handlers.handleAll({
      list: ({ params, query }) =>
        merchants.findById(params.id).pipe(Effect.mapError(Problem.fromDomain), Effect.andThen(pageOf(params.id, query))),
      provider: ({ query }) => pageOf(null, query)
    })
  })
)
