import { Effect } from "effect"
import type { SessionExpired } from "../GameSession.ts"
import { meta } from "../Paging.ts"
import { GameSessionRepo } from "../ports/GameSessionRepo.ts"
import { RoundLedger } from "../ports/RoundLedger.ts"
import { RoundList } from "../Round.ts"
import type { SessionEnded } from "../SessionControl.ts"

/** How many rounds game recall shows: the last 10 (GLI-19, UKGC RTS 7; CONTRACT §6). */
export const recallSize = 10

/**
 * Game recall: the session's player's last {@link recallSize} rounds of a game (default the session's own), in
 * the session's mode at its merchant, newest first, from this session and the player's earlier ones. One page;
 * a seed is shown once revealed, as in `GET rounds`.
 */
export const roundRecall = Effect.fn("roundRecall")(function*(
  sessionToken: string,
  gameId: string | undefined
): Effect.fn.Return<RoundList, SessionExpired | SessionEnded, GameSessionRepo | RoundLedger> {
  const session = yield* (yield* GameSessionRepo).identify(sessionToken)
  const rounds = yield* (yield* RoundLedger).recall({
    merchantId: session.merchantId,
    playerId: session.playerId,
    gameId: gameId ?? session.gameId,
    mode: session.mode
  }, recallSize)
  return new RoundList({ data: rounds, meta: meta({ page: 1, limit: recallSize }, rounds.length) })
})
