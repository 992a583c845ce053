import type { Effect, Stream } from "effect"
import { Context } from "effect"
import type { CurrencyCode } from "../Currency.ts"
import type { PageRequest } from "../Paging.ts"
import type {
  GroupBy,
  OperatorRound,
  ReportRange,
  ReportsBusy,
  ReportUnavailable,
  RoundFilter,
  ReportTimedOut,
  SummaryFilter,
  Sums,
  TransactionNotFound,
  TransactionView
} from "../Report.ts"

/** A group of the summary: its key and sums. */
export interface SummaryGroup extends Sums {
  readonly key: string
}

/** A page of the summary's groups, in key order, with the number of groups and the sums of the whole period. */
export interface SummaryPage {
  readonly groups: ReadonlyArray<SummaryGroup>
  readonly groupCount: number
  readonly total: Sums
}

/**
 * Read-only reports over a merchant's rounds, ledger and outbox, for reconciliation. Reports run within a budget
 * of their own (per merchant and in total, apart from bets and launches): over it, ReportsBusy at once; a query
 * past the reports' time-out, ReportTimedOut. A stream holds its budget until it ends.
 */
export class Reports extends Context.Service<Reports, {
  /** A page of the merchant's rounds in the filter, newest first, and how many match. */
  rounds(merchantId: number, filter: RoundFilter, page: PageRequest): Effect.Effect<{
    readonly rounds: ReadonlyArray<OperatorRound>
    readonly total: number
  }, ReportUnavailable>
  /**
   * Every round of the merchant in the filter, newest first, without paging:
   * read in bounded batches as the stream is pulled, so a year of rounds
   * never sits in memory, and nothing more is read once the stream stops.
   */
  roundStream(merchantId: number, filter: RoundFilter): Effect.Effect<Stream.Stream<OperatorRound, ReportTimedOut>, ReportsBusy>
  /** One transaction of the merchant; another merchant's, or none, is TransactionNotFound. */
  transaction(merchantId: number, transactionId: string): Effect.Effect<TransactionView, TransactionNotFound>
  /** A page of the ledger's sums of the merchant's real rounds of the period in `currency`, per group, in key order. */
  summary(
    merchantId: number,
    currency: CurrencyCode,
    range: SummaryFilter,
    groupBy: GroupBy,
    page: PageRequest
  ): Effect.Effect<SummaryPage, ReportUnavailable>
  /** Every group of {@link summary}, in key order, read in bounded batches as the stream is pulled. */
  summaryStream(
    merchantId: number,
    currency: CurrencyCode,
    range: SummaryFilter,
    groupBy: GroupBy
  ): Effect.Effect<Stream.Stream<SummaryGroup, ReportTimedOut>, ReportsBusy>
  /**
   * The GGR (minor units) of each merchant's real rounds of the period in its currency, as {@link summary}'s
   * total gives it; a merchant without such rounds is absent (0).
   */
  ggr(
    merchants: ReadonlyArray<{ readonly id: number; readonly currency: CurrencyCode }>,
    range: ReportRange
  ): Effect.Effect<ReadonlyMap<number, bigint>, ReportUnavailable>
}>()("@gateway/domain/ports/Reports") {}
