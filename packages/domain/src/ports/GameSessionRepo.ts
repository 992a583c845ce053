import type { Effect, Redacted } from "effect"
import { Context } from "effect"
import type { Fairness, RoundSeed, SeedRotated, SessionSeed } from "../Fairness.ts"
import type { GameSession, SessionExpired } from "../GameSession.ts"
import type { LaunchClaims, TokenAlreadyUsed } from "../LaunchToken.ts"
import type { MerchantId } from "../Merchant.ts"
import type { SessionEnded } from "../SessionControl.ts"
import type { AutoplayLimitReached } from "../Autoplay.ts"
import type { InsufficientFunds } from "../Wallet.ts"

/** A session just opened, with its opaque token (stored only hashed). */
export interface OpenedSession {
  readonly session: GameSession
  readonly sessionToken: Redacted.Redacted<string>
}

/** A demo round, recorded with the balance change it makes. */
export interface DemoRound {
  readonly roundId: string
  readonly gameId: string
  readonly stake: bigint
  /** The selection and outcome as JSON text. */
  readonly selection: string
  readonly outcome: string
  readonly payout: bigint
  readonly seed: RoundSeed
}

/** Game sessions: launch tokens are redeemed exactly once, even across instances. */
export class GameSessionRepo extends Context.Service<GameSessionRepo, {
  /**
   * Redeems the token's `jti` and opens a session with its first seeds; a second redemption fails with
   * TokenAlreadyUsed. With `claimed`, the caller already holds the `jti` ({@link claim}) and only the session is
   * opened. With `reported`, its `session.started` callback is queued in the same transaction (CONTRACT §10).
   * `rtp` is the RTP in force in the session, kept with it for its life ({@link GameSession}'s `rtp`).
   */
  open(
    claims: LaunchClaims,
    demoBalanceMinor: bigint,
    seed: SessionSeed,
    claimed?: boolean,
    reported?: boolean,
    rtp?: Readonly<Record<string, string>>
  ): Effect.Effect<OpenedSession, TokenAlreadyUsed>
  /**
   * Takes the token's `jti` for one redemption, atomically across instances: every other claim or redemption of it
   * fails with TokenAlreadyUsed until it is {@link release}d.
   */
  claim(jti: string): Effect.Effect<void, TokenAlreadyUsed>
  /** Gives back a claimed `jti` whose redemption failed before a session was opened. */
  release(jti: string): Effect.Effect<void>
  /**
   * The live session of a token, its idle expiry pushed forward; unknown or expired → SessionExpired, ended by the
   * operator → SessionEnded.
   */
  authenticate(sessionToken: string): Effect.Effect<GameSession, SessionExpired | SessionEnded>
  /**
   * The session of a token for a round: what never changes about it (merchant, player, game, currency, mode,
   * lobby), from memory when this instance has seen the token before, else as `authenticate` finds it. Whether
   * the session is still live is not known from this: {@link nextSeed} checks it when the round takes its nonce.
   */
  recall(sessionToken: string): Effect.Effect<GameSession, SessionExpired | SessionEnded>
  /**
   * The session of a token even once it has expired (to read its rounds); unknown → SessionExpired, ended by the
   * operator → SessionEnded.
   */
  identify(sessionToken: string): Effect.Effect<GameSession, SessionExpired | SessionEnded>
  /**
   * The seeds of the session's next round, its nonce taken atomically (the next round gets the next one), and
   * its idle expiry pushed forward; a session that has expired → SessionExpired, one ended by the operator →
   * SessionEnded, and no nonce is taken.
   */
  nextSeed(sessionId: string): Effect.Effect<RoundSeed, SessionExpired | SessionEnded>
  /** Reveals the current server seed and starts `next` at nonce 0, atomically with respect to `nextSeed`. */
  rotate(sessionId: string, next: SessionSeed): Effect.Effect<SeedRotated>
  /** The session's current commitment: its server seed's hash, client seed and next nonce (a page that resumes). */
  commitment(sessionId: string): Effect.Effect<Fairness>
  /** A demo session's virtual balance. */
  demoBalance(sessionId: string): Effect.Effect<bigint>
  /**
   * Moves a demo session's virtual balance by `-stake + payout` and records the round, atomically, refusing to go
   * below zero (nothing is recorded then).
   */
  settleDemo(sessionId: string, round: DemoRound): Effect.Effect<bigint, InsufficientFunds>
  /**
   * Ends the merchant's open sessions of a player at once (only those launched with `operatorSessionId` when
   * given), across instances: every later call with their tokens is SessionEnded, and a round not yet begun is
   * not begun (a round already begun finishes). The answer lists the sessions it ended (none already ended).
   */
  terminate(
    merchantId: MerchantId,
    playerId: string,
    operatorSessionId: string | undefined
  ): Effect.Effect<ReadonlyArray<GameSession>>

  /**
   * Starts the session's autoplay (replacing any earlier one): `rounds` rounds, until their net loss reaches
   * `lossLimitMinor`.
   */
  startAutoplay(sessionId: string, rounds: number, lossLimitMinor: bigint): Effect.Effect<void>
  /**
   * Takes one round of the session's autoplay, atomically (two at once cannot both take the last):
   * AutoplayLimitReached when its rounds are played, its loss limit is reached, or none was started.
   */
  takeAutoplayRound(sessionId: string): Effect.Effect<void, AutoplayLimitReached>
  /** Adds an autoplay round's net loss (its stake less its payout; negative for a win) to the autoplay's loss. */
  countAutoplayLoss(sessionId: string, lossMinor: bigint): Effect.Effect<void>
}>()("@gateway/domain/ports/GameSessionRepo") {}
