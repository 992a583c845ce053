import type { DateTime, Effect } from "effect"
import { Context } from "effect"
import type { SettledRound } from "../Callback.ts"
import type { CurrencyCode } from "../Currency.ts"
import type { RoundSeed } from "../Fairness.ts"
import type { FreeRoundGrant, FreeRoundTaken, GrantNotFound, NoFreeRounds, SessionFreeRounds } from "../FreeRound.ts"
import type { SessionExpired } from "../GameSession.ts"
import type { SessionEnded } from "../SessionControl.ts"
import type { PageRequest } from "../Paging.ts"
import type { WalletTransaction } from "../Wallet.ts"

/** A grant to record: its id, merchant and what the operator asked, the stake in minor units. */
export interface NewGrant {
  readonly id: string
  readonly merchantId: number
  readonly campaignId: string
  readonly playerId: string
  readonly gameId: string
  readonly rounds: number
  readonly stake: bigint
  readonly currency: CurrencyCode
  readonly expiresAt: DateTime.Utc
}

/** A free round about to be played: taken from the player's grant for the game, in the session's next nonce. */
export interface FreeRoundStart {
  readonly roundId: string
  readonly sessionId: string
  readonly merchantId: number
  readonly playerId: string
  readonly gameId: string
  /** The selection as JSON text. */
  readonly selection: string
}

/** What the game decided for a free round: the outcome as JSON text, the payout, and the credit of a win. */
export interface FreeRoundDecision {
  readonly outcomeJson: string
  readonly payout: bigint
  /** The credit to queue (a win); none for a loss. */
  readonly credit: WalletTransaction | undefined
  /** The round's `round.settled` callback to queue with it (the merchant has a `callbackUrl`), win or loss. */
  readonly reported?: SettledRound | undefined
}

/**
 * Grants of free rounds (CONTRACT §13) and the rounds played from them. A
 * free round is taken from its grant in the same transaction that begins
 * and settles it, so a grant of n rounds is never played n + 1 times.
 */
export class FreeRounds extends Context.Service<FreeRounds, {
  /** Records a grant; a grant of the same campaign, player and game made before is answered instead, unchanged. */
  grant(grant: NewGrant): Effect.Effect<FreeRoundGrant>
  /** A page of the merchant's grants to a player, newest first, and how many there are. */
  list(merchantId: number, playerId: string, page: PageRequest): Effect.Effect<{
    readonly grants: ReadonlyArray<FreeRoundGrant>
    readonly total: number
  }>
  /** Cancels what is left of a grant (a grant cancelled before is answered as it is). */
  cancel(merchantId: number, grantId: string): Effect.Effect<FreeRoundGrant, GrantNotFound>
  /** The grants a player may play now in a game, soonest to expire first. */
  available(merchantId: number, playerId: string, gameId: string): Effect.Effect<ReadonlyArray<SessionFreeRounds>>
  /**
   * Plays one free round in one transaction: one round taken from the player's grant for the game that expires
   * first, the session's next nonce taken, the round decided by `decide` on its seeds and the grant's stake, and
   * recorded settled, with the credit of a win in the ledger and queued, and the round's `round.settled` when
   * `decide` reports it; the credit and the callback carry the round's `roundDetailsUrl`. None left: NoFreeRounds; a session that
   * has ended: SessionExpired (SessionEnded when the operator ended it); either way nothing is taken or written.
   */
  play<D extends FreeRoundDecision>(
    round: FreeRoundStart,
    decide: (seed: RoundSeed, taken: FreeRoundTaken) => D
  ): Effect.Effect<{ readonly decision: D; readonly seed: RoundSeed; readonly taken: FreeRoundTaken }, NoFreeRounds | SessionExpired | SessionEnded>
}>()("@gateway/domain/ports/FreeRounds") {}
