import type { Effect } from "effect"
import { Context } from "effect"
import type { Game, GameId, GameNotFound, GameQuery } from "../Game.ts"

/** One page of games and the number of games that match the query. */
export interface GamePage {
  readonly games: ReadonlyArray<Game>
  readonly total: number
}

/** The catalogue of launchable games. */
export class GameCatalog extends Context.Service<GameCatalog, {
  /** A listed (not retired) game. */
  find(id: string): Effect.Effect<Game, GameNotFound>
  list(query: GameQuery): Effect.Effect<GamePage>
  /**
   * Changes whenever the listed games change: what was derived from `list`
   * under one version may be reused while the version stays the same (read
   * it before listing).
   */
  readonly version: Effect.Effect<number>
  upsert(id: GameId, game: Omit<Game, "id">): Effect.Effect<Game>
  /** Retires a game; `GameNotFound` when it is not listed. */
  retire(id: GameId): Effect.Effect<void, GameNotFound>
}>()("@gateway/domain/ports/GameCatalog") {}
