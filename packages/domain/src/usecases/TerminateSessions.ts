import { Effect } from "effect"
import type { GameSession } from "../GameSession.ts"
import type { MerchantId } from "../Merchant.ts"
import { GameSessionRepo } from "../ports/GameSessionRepo.ts"
import type { TerminateRequest, TerminateResult } from "../SessionControl.ts"

/**
 * What follows the end of sessions the operator terminated, once they have ended. Nothing yet: this is where the
 * `session.ended` callback (CONTRACT §10, with each session's totals) is to be queued for each of them.
 */
export const sessionsTerminated = (_sessions: ReadonlyArray<GameSession>): Effect.Effect<void> => Effect.void

/**
 * Ends a player's open game sessions of the merchant at once (CONTRACT §12: self-exclusion, fraud), or only those
 * of one operator session: their next game-api call is 401 SESSION_ENDED and no round of theirs begins any more.
 */
export const terminateSessions = Effect.fn("terminateSessions")(function*(
  merchantId: MerchantId,
  request: TerminateRequest
): Effect.fn.Return<TerminateResult, never, GameSessionRepo> {
  const ended = yield* (yield* GameSessionRepo).terminate(merchantId, request.playerId, request.sessionId)
  yield* sessionsTerminated(ended)
  return { terminated: ended.length }
})
