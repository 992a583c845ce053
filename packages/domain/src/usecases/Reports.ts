import { Effect, Stream } from "effect"
import type { Merchant } from "../Merchant.ts"
import * as Money from "../Money.ts"
import { meta, offset, type PageRequest } from "../Paging.ts"
import { ValidationFailed } from "../Validation.ts"
import { Reports } from "../ports/Reports.ts"
import {
  checkRange,
  ggrOf,
  type GroupBy,
  maxRoundsOffset,
  OperatorRoundList,
  type RoundFilter,
  Summary,
  type SummaryFilter,
  type SummaryRow,
  type Sums
} from "../Report.ts"

/** A page of the merchant's rounds with their transactions; a bad period, or a page deeper than maxRoundsOffset, is ValidationFailed. */
export const listRounds = Effect.fn("listRounds")(function*(merchant: Merchant, filter: RoundFilter, page: PageRequest) {
  const invalid = checkRange(filter)
  if (invalid !== undefined) return yield* invalid
  if (offset(page) > maxRoundsOffset) {
    return yield* new ValidationFailed({
      field: "page",
      detail: `(page − 1) × limit must be at most ${maxRoundsOffset}: narrow the period, or download the CSV`
    })
  }
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
  return yield* (yield* Reports).roundStream(merchant.id, filter)
})

/** One of the merchant's transactions. */
export const findTransaction = Effect.fn("findTransaction")(function*(merchant: Merchant, transactionId: string) {
  return yield* (yield* Reports).transaction(merchant.id, transactionId)
})

const figuresIn = (currency: Merchant["currency"]) => (sums: Sums) => {
  const format = (minor: bigint) => Money.format(Money.make(minor, currency))
  return {
    rounds: sums.rounds,
    bets: format(sums.bets),
    wins: format(sums.wins),
    refunds: format(sums.refunds),
    ggr: format(ggrOf(sums)),
    freeWins: format(sums.freeWins)
  }
}

/**
 * A page of the merchant's GGR summary of a period, exact to the minor unit: `ggr = bets − wins − refunds`. The
 * groups are paged like every list (`meta.totalElements` counts groups); `total` is the whole period's.
 */
export const reportSummary = Effect.fn("reportSummary")(function*(
  merchant: Merchant,
  range: SummaryFilter,
  groupBy: GroupBy,
  page: PageRequest
) {
  const invalid = checkRange(range)
  if (invalid !== undefined) return yield* invalid
  const { groups, groupCount, total } = yield* (yield* Reports).summary(merchant.id, merchant.currency, range, groupBy, page)
  const figures = figuresIn(merchant.currency)
  return new Summary({
    currency: merchant.currency,
    data: groups.map((g) => ({ key: g.key, ...figures(g) })),
    meta: meta(page, groupCount),
    total: figures(total)
  })
})

/**
 * Every group of the merchant's GGR summary of a period, in key order, as a stream (no paging: an export of the
 * whole period); a bad period is ValidationFailed before anything is read.
 */
export const exportSummary = Effect.fn("exportSummary")(function*(merchant: Merchant, range: SummaryFilter, groupBy: GroupBy) {
  const invalid = checkRange(range)
  if (invalid !== undefined) return yield* invalid
  const figures = figuresIn(merchant.currency)
  const groups = yield* (yield* Reports).summaryStream(merchant.id, merchant.currency, range, groupBy)
  return Stream.map(groups, (g): SummaryRow => ({ key: g.key, ...figures(g) }))
})
