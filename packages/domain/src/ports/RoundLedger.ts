import type { Effect } from "effect"
import { Context } from "effect"
import type { WalletTransaction } from "../Wallet.ts"

/** A round about to be debited. */
export interface PendingRound {
  readonly roundId: string
  readonly sessionId: string
  readonly stake: bigint
  readonly selection: string
  /** The debit that will be sent; recorded before it is sent, so a crash can be repaired by a refund. */
  readonly debit: WalletTransaction
}

/**
 * Rounds, the append-only ledger and the transactional outbox. Every
 * message that must reach the operator (credits, refunds) is written in the
 * same database transaction as the ledger rows that cause it.
 */
export class RoundLedger extends Context.Service<RoundLedger, {
  /** Records the round as `debiting` with its debit, before the debit is sent. */
  begin(round: PendingRound): Effect.Effect<void>
  /** The debit was accepted: ledger debit + credit, the round settled, the credit queued — one transaction. */
  settle(roundId: string, outcome: string, payout: bigint, credit: WalletTransaction): Effect.Effect<void>
  /** The operator refused the debit: the round is closed as refused; nothing is queued. */
  refuse(roundId: string): Effect.Effect<void>
  /** The debit's outcome is unknown: the round fails, the refund is written to the ledger and queued. */
  fail(roundId: string, refund: WalletTransaction): Effect.Effect<void>
}>()("@gateway/domain/ports/RoundLedger") {}
