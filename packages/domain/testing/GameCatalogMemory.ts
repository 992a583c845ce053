import { Effect, Layer } from "effect"
import { Game, GameNotFound } from "../src/Game.ts"
import { GameCatalog } from "../src/ports/GameCatalog.ts"

/** The GameCatalog port in memory: search, sort with `id` as tie-break, paging; upsert and retire work (and change the version). */
export const makeGameCatalog = (initial: ReadonlyArray<Game>): GameCatalog["Service"] => {
  const games = new Map(initial.map((g) => [g.id, g]))
  let version = 0
  return GameCatalog.of({
    find: (id) => {
      const game = games.get(id)
      return game === undefined ? Effect.fail(new GameNotFound({ gameId: id })) : Effect.succeed(game)
    },
    list: (query) =>
      Effect.sync(() => {
        const needle = query.search?.toLowerCase()
        const matching = [...games.values()]
          .filter((g) => needle === undefined || query.searchFields.some((f) => g[f].toLowerCase().includes(needle)))
          .toSorted((a, b) => {
            const order = String(a[query.sortBy]).localeCompare(String(b[query.sortBy])) || a.id.localeCompare(b.id)
            return query.sortOrder === "ASC" ? order : -order
          })
        const start = (query.page - 1) * query.limit
        return { games: matching.slice(start, start + query.limit), total: matching.length }
      }),
    version: Effect.sync(() => version),
    upsert: (id, game) =>
      Effect.sync(() => {
        const saved = new Game({ id, ...game })
        games.set(id, saved)
        version++
        return saved
      }),
    retire: (id) =>
      Effect.suspend(() => {
        if (!games.delete(id)) return Effect.fail(new GameNotFound({ gameId: id }))
        version++
        return Effect.void
      })
  })
}

/** {@link makeGameCatalog} as a layer. */
export const gameCatalog = (initial: ReadonlyArray<Game>) => Layer.sync(GameCatalog, () => makeGameCatalog(initial))
