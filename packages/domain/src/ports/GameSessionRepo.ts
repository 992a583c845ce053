import type { Effect, Redacted } from "effect"
import { Context } from "effect"
import type { GameSession, SessionExpired } from "../GameSession.ts"
import type { LaunchClaims, TokenAlreadyUsed } from "../LaunchToken.ts"
import type { InsufficientFunds } from "../Wallet.ts"

/** A session just opened, with its opaque token (stored only hashed). */
export interface OpenedSession {
  readonly session: GameSession
  readonly sessionToken: Redacted.Redacted<string>
}

/** Game sessions: launch tokens are redeemed exactly once, even across instances. */
export class GameSessionRepo extends Context.Service<GameSessionRepo, {
  /** Redeems the token's `jti` and opens a session; a second redemption fails with TokenAlreadyUsed. */
  open(claims: LaunchClaims, demoBalanceMinor: bigint): Effect.Effect<OpenedSession, TokenAlreadyUsed>
  /** The live session of a token, its idle expiry pushed forward; unknown or expired → SessionExpired. */
  authenticate(sessionToken: string): Effect.Effect<GameSession, SessionExpired>
  /** A demo session's virtual balance. */
  demoBalance(sessionId: string): Effect.Effect<bigint>
  /** Moves a demo session's virtual balance by `-stake + payout` atomically, refusing to go below zero. */
  settleDemo(sessionId: string, stake: bigint, payout: bigint): Effect.Effect<bigint, InsufficientFunds>
}>()("@gateway/domain/ports/GameSessionRepo") {}

