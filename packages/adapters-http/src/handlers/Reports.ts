import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { exportRounds, exportSummary, findTransaction, listRounds, reportSummary, Report, Reports, RoundLinks } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Problem from "@gateway/client/api/Problem"
import { CurrentMerchant } from "@gateway/client/api/Security"
import { wantsCsv } from "../csv/Accept.ts"
import * as ReportsCsv from "../csv/ReportsCsv.ts"
import * as Ports from "../Ports.ts"

/** A list of rounds, each with its signed `roundDetailsUrl` (CONTRACT §10). */
export const withRoundLinks = (links: RoundLinks["Service"]) => (list: Report.OperatorRoundList) =>
  new Report.OperatorRoundList({
    ...list,
    data: list.data.map((round) => new Report.OperatorRound({ ...round, roundDetailsUrl: links.url(round.roundId) }))
  })

/** Rounds, transactions and the GGR summary of the key's merchant; the rounds and the summary also as CSV. */
export const ReportsLive = HttpApiBuilder.group(
  Api,
  "reports",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(Reports)
    const links = yield* RoundLinks
    const linked = withRoundLinks(links)
    return handlers.handleAll({
      rounds: ({ query: { page, limit, ...filter }, request }) =>
        Effect.gen(function*() {
          const merchant = yield* CurrentMerchant
          return wantsCsv(request.headers["accept"])
            ? ReportsCsv.rounds(filter, yield* exportRounds(merchant, filter), links)
            : linked(yield* listRounds(merchant, filter, { page, limit }))
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      transaction: ({ params }) =>
        Effect.gen(function*() {
          return yield* findTransaction(yield* CurrentMerchant, params.transactionId)
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      summary: ({ query: { groupBy, page, limit, ...range }, request }) =>
        Effect.gen(function*() {
          const merchant = yield* CurrentMerchant
          return wantsCsv(request.headers["accept"])
            ? ReportsCsv.summary(range, groupBy, merchant.currency, yield* exportSummary(merchant, range, groupBy))
            : yield* reportSummary(merchant, range, groupBy, { page, limit })
        }).pipe(provide, Effect.mapError(Problem.fromDomain))
    })
  })
)
