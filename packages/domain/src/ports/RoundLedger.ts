import type { Effect } from "effect"
import { Context } from "effect"
import type { RoundSeed } from "../Fairness.ts"
import type { SessionExpired } from "../GameSession.ts"
import type { SessionEnded } from "../SessionControl.ts"
import type { AutoplayLimitReached } from "../Autoplay.ts"
import type { PageRequest } from "../Paging.ts"
import type { SettledRound } from "../Callback.ts"
import type { RoundDetails, RoundNotFound, RoundView } from "../Round.ts"
import type { WalletTransaction } from "../Wallet.ts"

/** A round about to be debited. */
export interface PendingRound {
  readonly roundId: string
  readonly sessionId: string
  readonly gameId: string
  readonly stake: bigint
  /** The selection as JSON text. */
  readonly selection: string
  /** The debit that will be sent; recorded before it is sent, so a crash can be repaired by a refund. */
  readonly debit: WalletTransaction
  /**
   * Played by autoplay (CONTRACT §12): one of the session's autoplay rounds is taken as the round begins, and the
   * round's net loss counted against the autoplay's loss limit when it settles.
   */
  readonly autoplay?: boolean | undefined
}

/** Whose rounds game recall shows: one player's, of one game, in one mode, at one merchant (CONTRACT §6). */
export interface RecallKey {
  readonly merchantId: number
  readonly playerId: string
  readonly gameId: string
  readonly mode: "real" | "demo"
}

/**
 * Rounds, the append-only ledger and the transactional outbox. Every
 * message that must reach the operator (credits, refunds) is written in the
 * same database transaction as the ledger rows that cause it.
 */
export class RoundLedger extends Context.Service<RoundLedger, {
  /**
   * Takes the session's next nonce and records the round as `debiting` with its debit and the seeds it draws
   * from, in one step, before the debit is sent: the seeds. A session that has expired → SessionExpired, one
   * ended by the operator → SessionEnded, an autoplay round of a live session whose autoplay has no round left,
   * has reached its loss limit or was never started → AutoplayLimitReached; and nothing is taken or written.
   */
  begin(round: PendingRound): Effect.Effect<RoundSeed, SessionExpired | SessionEnded | AutoplayLimitReached>
  /**
   * The debit was accepted: ledger debit + credit, the round settled with its outcome (JSON text), the credit
   * queued — one transaction. With `reported`, the round's `round.settled` callback is queued in it too (the
   * merchant has a `callbackUrl`). An autoplay round's net loss (stake − payout) is added to its session's
   * autoplay in the same transaction.
   */
  settle(
    roundId: string,
    outcome: string,
    payout: bigint,
    credit: WalletTransaction,
    reported?: SettledRound
  ): Effect.Effect<void>
  /** The operator refused the debit: the round is closed as refused; nothing is queued. */
  refuse(roundId: string): Effect.Effect<void>
  /** The debit's outcome is unknown: the round fails, the refund is written to the ledger and queued. */
  fail(roundId: string, refund: WalletTransaction): Effect.Effect<void>
  /** A round of the session, with its server seed once revealed; another session's round is RoundNotFound. */
  find(sessionId: string, roundId: string): Effect.Effect<RoundView, RoundNotFound>
  /** Any round by its id, with its currency and its server seed once revealed (the round's link, CONTRACT §10). */
  details(roundId: string): Effect.Effect<RoundDetails, RoundNotFound>
  /** A page of the session's rounds, newest first, and how many it has. */
  history(sessionId: string, page: PageRequest): Effect.Effect<{ readonly rounds: ReadonlyArray<RoundView>; readonly total: number }>
  /**
   * The player's last `limit` rounds of the game in the mode at the merchant, newest first, across their sessions
   * (game recall): looked for in their most recent sessions only, so the cost is bounded whatever their past.
   */
  recall(key: RecallKey, limit: number): Effect.Effect<ReadonlyArray<RoundView>>
}>()("@gateway/domain/ports/RoundLedger") {}
