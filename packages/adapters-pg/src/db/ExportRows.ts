import { CurrencyCode } from "@gateway/domain/Currency"
import { TransactionType } from "@gateway/domain/Report"
import { RoundStatus } from "@gateway/domain/Round"
import { DateTime, Schema } from "effect"

const isStatus = Schema.is(RoundStatus)
const isKind = Schema.is(TransactionType)
const isCurrency = Schema.is(CurrencyCode)
const isDelivery = (value: unknown) => value === null || value === "pending" || value === "delivered" || value === "failed"
const isMode = (value: unknown) => value === "real" || value === "demo"
const stringOrNull = (value: unknown) => value === null || typeof value === "string"
const bigintOrNull = (value: unknown) => value === null || typeof value === "bigint"

/** One row of a CSV export's batch: a round, with one of its ledger transactions other than the debit (or none). */
export interface ExportRow {
  readonly round_id: string
  readonly game_id: string
  readonly player_id: string
  readonly operator_session_id: string
  readonly mode: "real" | "demo"
  readonly status: typeof RoundStatus.Type
  readonly stake_minor: bigint
  readonly payout_minor: bigint | null
  readonly currency: CurrencyCode
  readonly created_at: DateTime.Utc
  readonly created_at_exact: string
  readonly debit_id: string | null
  readonly shop_id: string | null
  readonly free_round_grant_id: string | null
  readonly transaction_id: string | null
  readonly kind: typeof TransactionType.Type | null
  readonly amount_minor: bigint | null
  readonly delivery_status: "pending" | "delivered" | "failed" | null
}

/**
 * A row of the export's batch query as an {@link ExportRow}; a row of another shape is a defect. Checked field by
 * field: a Schema decode of a batch (1,000 rounds, ~1,500 rows) held the event loop the bets share for ~7 ms of
 * the export's ~50 ms a batch (bench/README.md, "Isolation").
 */
export const exportRow = (row: Record<string, unknown>): ExportRow => {
  const {
    round_id, game_id, player_id, operator_session_id, mode, status, stake_minor, payout_minor, currency, created_at,
    created_at_exact, debit_id, shop_id, free_round_grant_id, transaction_id, kind, amount_minor, delivery_status
  } = row
  if (
    typeof round_id !== "string" || typeof game_id !== "string" || typeof player_id !== "string" ||
    typeof operator_session_id !== "string" || !isMode(mode) || !isStatus(status) || typeof stake_minor !== "bigint" ||
    !bigintOrNull(payout_minor) || !isCurrency(currency) || !(created_at instanceof Date) ||
    typeof created_at_exact !== "string" || !stringOrNull(debit_id) || !stringOrNull(shop_id) || !stringOrNull(free_round_grant_id) ||
    !stringOrNull(transaction_id) ||
    !(kind === null || isKind(kind)) || !bigintOrNull(amount_minor) || !isDelivery(delivery_status)
  ) throw new Error(`the export's batch returned a row of another shape (round ${String(round_id)})`)
  return {
    round_id, game_id, player_id, operator_session_id, mode: mode === "real" ? "real" : "demo", status,
    stake_minor, payout_minor: typeof payout_minor === "bigint" ? payout_minor : null, currency,
    created_at: DateTime.fromDateUnsafe(created_at), created_at_exact,
    debit_id: typeof debit_id === "string" ? debit_id : null,
    shop_id: typeof shop_id === "string" ? shop_id : null,
    free_round_grant_id: typeof free_round_grant_id === "string" ? free_round_grant_id : null,
    transaction_id: typeof transaction_id === "string" ? transaction_id : null,
    kind: kind === null ? null : kind,
    amount_minor: typeof amount_minor === "bigint" ? amount_minor : null,
    delivery_status: delivery_status === "pending" || delivery_status === "delivered" || delivery_status === "failed"
      ? delivery_status
      : null
  }
}

/** One group of a summary export: its key, rounds and sums in minor units. */
export interface ExportGroup {
  readonly key: string
  readonly rounds: number
  readonly bets: bigint
  readonly wins: bigint
  readonly refunds: bigint
  readonly freeWins: bigint
}

const integer = /^-?\d+$/u
const minor = (value: unknown) => typeof value === "string" && integer.test(value)

/** A row of the summary's cursor (sums as `numeric` text) as an {@link ExportGroup}; another shape is a defect. */
export const exportGroup = (row: Record<string, unknown>): ExportGroup => {
  const { key, rounds, bets, wins, refunds, free_wins } = row
  if (
    typeof key !== "string" || typeof rounds !== "number" || typeof bets !== "string" || !minor(bets) ||
    typeof wins !== "string" || !minor(wins) || typeof refunds !== "string" || !minor(refunds) ||
    typeof free_wins !== "string" || !minor(free_wins)
  ) throw new Error(`the summary's cursor returned a row of another shape (key ${String(key)})`)
  return { key, rounds, bets: BigInt(bets), wins: BigInt(wins), refunds: BigInt(refunds), freeWins: BigInt(free_wins) }
}
