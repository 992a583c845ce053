import { Clock, Effect } from "effect"
import type { Merchant } from "../Merchant.ts"
import { meta, type PageRequest } from "../Paging.ts"
import { Reports } from "../ports/Reports.ts"
import { OperatorRoundList, type ReportRange, type RoundFilter } from "../Report.ts"
import { listRounds } from "./Reports.ts"

const day = 86_400_000

/** A period whose absent ends are today's (UTC): from the start of today to the start of tomorrow. */
export const periodOr = Effect.fnUntraced(function*(range: { readonly from?: Date | undefined; readonly to?: Date | undefined }) {
  const today = Math.floor((yield* Clock.currentTimeMillis) / day) * day
  return { from: range.from ?? new Date(today), to: range.to ?? new Date(today + day) } satisfies ReportRange
})

/** What the back office looks rounds up by: an id, or the filters of the round list. */
export interface RoundLookUp extends Omit<RoundFilter, "from" | "to"> {
  readonly from?: Date | undefined
  readonly to?: Date | undefined
  readonly transactionId?: string | undefined
}

/** Round and transaction ids name one round in the whole history: their look-up has no period unless one is given. */
const allTime = { from: new Date("2000-01-01T00:00:00Z"), to: new Date("9999-12-31T00:00:00Z") }

/**
 * The back office's round look-up (CONTRACT §9): by round id, by the id of
 * any of its transactions, or by player and period (default today, UTC),
 * answered as the operator's round list answers. A transaction of another
 * merchant, or none, finds no round.
 */
export const lookUpRounds = Effect.fn("lookUpRounds")(function*(merchant: Merchant, query: RoundLookUp, page: PageRequest) {
  const { transactionId, from, to, ...filter } = query
  let roundId = filter.roundId
  if (transactionId !== undefined) {
    const found = yield* Effect.option((yield* Reports).transaction(merchant.id, transactionId))
    if (found._tag === "None" || (roundId !== undefined && roundId !== found.value.roundId)) {
      return new OperatorRoundList({ data: [], meta: meta(page, 0) })
    }
    roundId = found.value.roundId
  }
  if (roundId !== undefined && from === undefined && to === undefined) {
    const { rounds, total } = yield* (yield* Reports).rounds(merchant.id, { ...filter, ...allTime, roundId }, page)
    return new OperatorRoundList({ data: rounds, meta: meta(page, total) })
  }
  return yield* listRounds(merchant, { ...filter, ...(yield* periodOr({ from, to })), roundId }, page)
})
