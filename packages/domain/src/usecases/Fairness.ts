import { Effect } from "effect"
import type { SeedRotated, SessionSeed } from "../Fairness.ts"
import type { SessionExpired } from "../GameSession.ts"
import type { SessionEnded } from "../SessionControl.ts"
import { FairRandom } from "../ports/FairRandom.ts"
import { GameSessionRepo } from "../ports/GameSessionRepo.ts"
import { RoundLedger } from "../ports/RoundLedger.ts"
import { meta, type PageRequest } from "../Paging.ts"
import { type RoundNotFound, RoundList, type RoundView } from "../Round.ts"

/** How many characters a generated client seed has. */
const clientSeedLength = 16

/** Fresh seeds: a new secret server seed, its hash, and the given client seed or a random one. */
export const newSessionSeed = (fair: FairRandom["Service"], clientSeed?: string): SessionSeed => {
  const serverSeed = fair.newSeed()
  return {
    serverSeed,
    serverSeedHash: fair.sha256Hex(serverSeed),
    clientSeed: clientSeed ?? fair.newSeed().slice(0, clientSeedLength)
  }
}

/**
 * Sets the player's client seed: the current server seed is revealed and a
 * new one committed, nonce 0 (`PUT /game-api/fairness`).
 */
export const rotateSeed = Effect.fn("rotateSeed")(function*(
  sessionToken: string,
  clientSeed: string
): Effect.fn.Return<SeedRotated, SessionExpired | SessionEnded, GameSessionRepo | FairRandom> {
  const sessions = yield* GameSessionRepo
  const session = yield* sessions.authenticate(sessionToken)
  return yield* sessions.rotate(session.id, newSessionSeed(yield* FairRandom, clientSeed))
})

/** A round of the token's session, also once the session has ended (`GET /game-api/rounds/{roundId}`). */
export const roundOf = Effect.fn("roundOf")(function*(
  sessionToken: string,
  roundId: string
): Effect.fn.Return<RoundView, SessionExpired | SessionEnded | RoundNotFound, GameSessionRepo | RoundLedger> {
  const session = yield* (yield* GameSessionRepo).identify(sessionToken)
  return yield* (yield* RoundLedger).find(session.id, roundId)
})

/** A page of the token's session's rounds, newest first, also once the session has ended (`GET /game-api/rounds`). */
export const roundHistory = Effect.fn("roundHistory")(function*(
  sessionToken: string,
  page: PageRequest
): Effect.fn.Return<RoundList, SessionExpired | SessionEnded, GameSessionRepo | RoundLedger> {
  const session = yield* (yield* GameSessionRepo).identify(sessionToken)
  const { rounds, total } = yield* (yield* RoundLedger).history(session.id, page)
  return new RoundList({ data: rounds, meta: meta(page, total) })
})
