import { Effect, Result } from "effect"
import type { AutoplayRequest, AutoplayStarted } from "../Autoplay.ts"
import { maxAutoplayRounds } from "../Autoplay.ts"
import type { SessionExpired } from "../GameSession.ts"
import * as Money from "../Money.ts"
import { GameSessionRepo } from "../ports/GameSessionRepo.ts"
import type { SessionEnded } from "../SessionControl.ts"
import { ValidationFailed } from "../Validation.ts"

/** The largest loss limit: every round of the longest autoplay at the largest stake. */
const maxLossLimitMinor = Money.maxStakeMinor * BigInt(maxAutoplayRounds)

/**
 * Starts the session's autoplay (CONTRACT §12): its rounds (`POST rounds` with `autoplay: true`) are refused by
 * the server once `rounds` are played or their net loss reaches `lossLimit`, whatever the page does.
 */
export const startAutoplay = Effect.fn("startAutoplay")(function*(
  sessionToken: string,
  request: AutoplayRequest
): Effect.fn.Return<AutoplayStarted, SessionExpired | SessionEnded | ValidationFailed, GameSessionRepo> {
  const sessions = yield* GameSessionRepo
  const session = yield* sessions.authenticate(sessionToken)
  const parsed = Money.parse(request.lossLimit, session.currency)
  if (Result.isFailure(parsed)) {
    return yield* new ValidationFailed({ field: "lossLimit", detail: parsed.failure.message })
  }
  const limit = parsed.success.minor
  if (limit <= 0n || limit > maxLossLimitMinor) {
    const most = Money.format(Money.make(maxLossLimitMinor, session.currency))
    return yield* new ValidationFailed({ field: "lossLimit", detail: `must be greater than 0 and at most ${most}` })
  }
  yield* sessions.startAutoplay(session.id, request.rounds, limit)
  return { rounds: request.rounds, lossLimit: Money.format(parsed.success) }
})
