import { Effect } from "effect"
import { GameNotFound } from "../Game.ts"
import { rtpInSession, type SessionExpired } from "../GameSession.ts"
import type { SessionEnded } from "../SessionControl.ts"
import * as Games from "../games/Games.ts"
import { GameRulesView, LobbyList } from "../Lobby.ts"
import { pageLanguages } from "../PageLaunch.ts"
import type { MerchantNotFound } from "../Merchant.ts"
import { GameCatalog } from "../ports/GameCatalog.ts"
import { meta, offset, type PageRequest } from "../Paging.ts"
import { GameSessionRepo } from "../ports/GameSessionRepo.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"

/**
 * A built-in game's rules: its selection's JSON Schema and examples, and
 * the pay table at the RTP that applies — with a session token, the one in
 * force in that session (fixed when it opened), else the default.
 */
export const gameRules = Effect.fn("gameRules")(function*(
  gameId: string,
  sessionToken: string | undefined
): Effect.fn.Return<GameRulesView, GameNotFound | SessionExpired | SessionEnded | MerchantNotFound, GameSessionRepo | MerchantRepo> {
  const rules = Games.rulesOf(gameId)
  if (rules === undefined) return yield* new GameNotFound({ gameId })
  let rtp = Games.rtpFor(gameId, undefined)
  if (sessionToken !== undefined) {
    const session = yield* (yield* GameSessionRepo).authenticate(sessionToken)
    rtp = rtpInSession(session, gameId, (yield* (yield* MerchantRepo).findById(session.merchantId)).MerchantSettings)
  }
  return new GameRulesView({
    gameId: rules.id,
    name: rules.name,
    description: rules.description,
    selectionSchema: rules.selectionSchema,
    examples: rules.examples,
    rtp: Games.formatRtp(rtp),
    payouts: rules.payouts(rtp),
    languages: pageLanguages
  })
})

/** The built-in games a session's lobby lists: those still in the catalogue, each at the RTP in force in the session. */
export const lobbyGames = Effect.fn("lobbyGames")(function*(
  sessionToken: string,
  page: PageRequest
): Effect.fn.Return<LobbyList, SessionExpired | SessionEnded | MerchantNotFound, GameSessionRepo | MerchantRepo | GameCatalog> {
  const session = yield* (yield* GameSessionRepo).authenticate(sessionToken)
  const merchant = yield* (yield* MerchantRepo).findById(session.merchantId)
  const catalog = yield* GameCatalog
  const data = []
  for (const rules of Games.allRules) {
    const game = yield* catalog.find(rules.id).pipe(Effect.option)
    if (game._tag === "None") continue
    data.push({
      id: game.value.id,
      name: game.value.name,
      category: game.value.category,
      imageUrl: game.value.imageUrl,
      rtp: Games.formatRtp(rtpInSession(session, rules.id, merchant.MerchantSettings))
    })
  }
  return new LobbyList({ data: data.slice(offset(page), offset(page) + page.limit), meta: meta(page, data.length) })
})
