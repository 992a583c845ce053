import type { Effect, Stream } from "effect"
import { Context } from "effect"
import type { CurrencyCode } from "../Currency.ts"
import type { PageRequest } from "../Paging.ts"
import type { GroupBy, OperatorRound, ReportRange, RoundFilter, Sums, TransactionNotFound, TransactionView } from "../Report.ts"

/** A group of the summary: its key and sums. */
export interface SummaryGroup extends Sums {
  readonly key: string
}

/** Read-only reports over a merchant's rounds, ledger and outbox, for reconciliation. */
export class Reports extends Context.Service<Reports, {
  /** A page of the merchant's rounds in the filter, newest first, and how many match. */
  rounds(merchantId: number, filter: RoundFilter, page: PageRequest): Effect.Effect<{
    readonly rounds: ReadonlyArray<OperatorRound>
    readonly total: number
  }>
  /**
   * Every round of the merchant in the filter, newest first, without paging:
   * read in bounded batches as the stream is pulled, so a year of rounds
   * never sits in memory, and nothing more is read once the stream stops.
   */
  roundStream(merchantId: number, filter: RoundFilter): Stream.Stream<OperatorRound>
  /** One transaction of the merchant; another merchant's, or none, is TransactionNotFound. */
  transaction(merchantId: number, transactionId: string): Effect.Effect<TransactionView, TransactionNotFound>
  /** The ledger's sums of the merchant's real rounds of the period in `currency`, per group. */
  summary(merchantId: number, currency: CurrencyCode, range: ReportRange, groupBy: GroupBy): Effect.Effect<ReadonlyArray<SummaryGroup>>
  /**
   * The GGR (minor units) of each merchant's real rounds of the period in its currency, as {@link summary}'s
   * total gives it; a merchant without such rounds is absent (0).
   */
  ggr(
    merchants: ReadonlyArray<{ readonly id: number; readonly currency: CurrencyCode }>,
    range: ReportRange
  ): Effect.Effect<ReadonlyMap<number, bigint>>
}>()("@gateway/domain/ports/Reports") {}
