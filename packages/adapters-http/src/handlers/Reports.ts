import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { findTransaction, listRounds, reportSummary, Reports } from "@gateway/domain"
import { Api } from "../api/Api.ts"
import * as Problem from "../api/Problem.ts"
import { CurrentMerchant } from "../api/Security.ts"
import * as Ports from "../Ports.ts"

/** Rounds, transactions and the GGR summary of the key's merchant. */
export const ReportsLive = HttpApiBuilder.group(
  Api,
  "reports",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(Reports)
    return handlers.handleAll({
      rounds: ({ query: { page, limit, ...filter } }) =>
        Effect.gen(function*() {
          return yield* listRounds(yield* CurrentMerchant, filter, { page, limit })
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      transaction: ({ params }) =>
        Effect.gen(function*() {
          return yield* findTransaction(yield* CurrentMerchant, params.transactionId)
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      summary: ({ query: { groupBy, ...range } }) =>
        Effect.gen(function*() {
          return yield* reportSummary(yield* CurrentMerchant, range, groupBy)
        }).pipe(provide, Effect.mapError(Problem.fromDomain))
    })
  })
)
