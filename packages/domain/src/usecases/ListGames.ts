import { Effect } from "effect"
import type { Game, GameQuery } from "../Game.ts"
import * as Paging from "../Paging.ts"
import { GameCatalog } from "../ports/GameCatalog.ts"

/** The answer of the games list: a page of games and its metadata. */
export interface GameList {
  readonly data: ReadonlyArray<Game>
  readonly meta: Paging.PageMeta
}

/** One page of the catalogue, searched and sorted in the catalogue itself. */
export const listGames = Effect.fn("listGames")(function*(query: GameQuery): Effect.fn.Return<GameList, never, GameCatalog> {
  const page = yield* (yield* GameCatalog).list(query)
  return { data: page.games, meta: Paging.meta(query, page.total) }
})
