import { Effect } from "effect"
import type { Merchant } from "../Merchant.ts"
import * as Money from "../Money.ts"
import { meta, type PageRequest } from "../Paging.ts"
import { Reports } from "../ports/Reports.ts"
import { checkRange, ggrOf, type GroupBy, OperatorRoundList, type ReportRange, type RoundFilter, Summary, type Sums } from "../Report.ts"

/** A page of the merchant's rounds with their transactions; a bad period is ValidationFailed. */
export const listRounds = Effect.fn("listRounds")(function*(merchant: Merchant, filter: RoundFilter, page: PageRequest) {
  const invalid = checkRange(filter)
  if (invalid !== undefined) return yield* invalid
  const { rounds, total } = yield* (yield* Reports).rounds(merchant.id, filter, page)
  return new OperatorRoundList({ data: rounds, meta: meta(page, total) })
})

/**
 * Every round of the merchant in the filter, newest first, as a stream (no
 * paging: an export of the whole period); a bad period is ValidationFailed
 * before anything is read.
 */
export const exportRounds = Effect.fn("exportRounds")(function*(merchant: Merchant, filter: RoundFilter) {
  const invalid = checkRange(filter)
  if (invalid !== undefined) return yield* invalid
  return (yield* Reports).roundStream(merchant.id, filter)
})

/** One of the merchant's transactions. */
export const findTransaction = Effect.fn("findTransaction")(function*(merchant: Merchant, transactionId: string) {
  return yield* (yield* Reports).transaction(merchant.id, transactionId)
})

/** The merchant's GGR summary of a period, exact to the minor unit: `ggr = bets − wins − refunds`. */
export const reportSummary = Effect.fn("reportSummary")(function*(merchant: Merchant, range: ReportRange, groupBy: GroupBy) {
  const invalid = checkRange(range)
  if (invalid !== undefined) return yield* invalid
  const groups = yield* (yield* Reports).summary(merchant.id, merchant.currency, range, groupBy)
  const format = (minor: bigint) => Money.format(Money.make(minor, merchant.currency))
  const figures = (sums: Sums) => ({
    rounds: sums.rounds,
    bets: format(sums.bets),
    wins: format(sums.wins),
    refunds: format(sums.refunds),
    ggr: format(ggrOf(sums))
  })
  const total = groups.reduce<Sums>(
    (acc, g) => ({ rounds: acc.rounds + g.rounds, bets: acc.bets + g.bets, wins: acc.wins + g.wins, refunds: acc.refunds + g.refunds }),
    { rounds: 0, bets: 0n, wins: 0n, refunds: 0n }
  )
  return new Summary({
    currency: merchant.currency,
    data: groups.map((g) => ({ key: g.key, ...figures(g) })),
    total: figures(total)
  })
})
