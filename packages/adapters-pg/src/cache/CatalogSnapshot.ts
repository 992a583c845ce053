import type { Game, GameQuery, GameSortField } from "@gateway/domain/Game"
import { offset } from "@gateway/domain/Paging"

interface Entry {
  readonly game: Game
  /** The name and id in lower case, for search and the `name` order. */
  readonly name: string
  readonly id: string
}

const byKey = {
  name: (a: Entry, b: Entry) => compare(a.name, b.name) || compare(a.game.id, b.game.id),
  releaseDate: (a: Entry, b: Entry) => compare(a.game.releaseDate, b.game.releaseDate) || compare(a.game.id, b.game.id),
  category: (a: Entry, b: Entry) => a.game.category - b.game.category || compare(a.game.id, b.game.id),
  id: (a: Entry, b: Entry) => compare(a.game.id, b.game.id)
} satisfies Record<GameSortField, (a: Entry, b: Entry) => number>

const compare = (a: string, b: string): number => a < b ? -1 : a > b ? 1 : 0

const searchesKept = 256

/** The version of the last view made in this process: every view has its own. */
let lastVersion = 0

/**
 * An immutable view of the listed games: by id, and pre-sorted once for each
 * sort key with `id` as the tie-break (DESC is the exact reverse), names and
 * ids lower-cased for the case-insensitive substring search. Searches are
 * remembered for the life of the view (the 256 most recent). Each view has
 * a version of its own, higher than every view made before it.
 */
export interface CatalogSnapshot {
  readonly version: number
  readonly size: number
  readonly find: (id: string) => Game | undefined
  readonly list: (query: GameQuery) => { readonly games: ReadonlyArray<Game>; readonly total: number }
  /** A new view with these games added or replaced and these ids removed. */
  readonly change: (upserted: ReadonlyArray<Game>, removed: ReadonlyArray<string>) => CatalogSnapshot
}

/** The view of `games`. */
export const make = (games: Iterable<Game>): CatalogSnapshot => {
  const byId = new Map<string, Game>()
  for (const game of games) byId.set(game.id, game)
  const entries = [...byId.values()].map((game): Entry => ({ game, name: game.name.toLowerCase(), id: game.id.toLowerCase() }))
  const sorted = {
    name: entries.toSorted(byKey.name),
    releaseDate: entries.toSorted(byKey.releaseDate),
    category: entries.toSorted(byKey.category),
    id: entries.toSorted(byKey.id)
  }
  const searches = new Map<string, ReadonlyArray<Entry>>()

  const matching = (query: GameQuery): ReadonlyArray<Entry> => {
    const all = sorted[query.sortBy]
    const needle = query.search?.toLowerCase() ?? ""
    if (needle === "") return all
    const inName = query.searchFields.length === 0 || query.searchFields.includes("name")
    const inId = query.searchFields.length === 0 || query.searchFields.includes("id")
    const key = `${query.sortBy}\u0000${inName ? 1 : 0}${inId ? 1 : 0}\u0000${needle}`
    const kept = searches.get(key)
    if (kept !== undefined) return kept
    const found = all.filter((e) => (inName && e.name.includes(needle)) || (inId && e.id.includes(needle)))
    if (searches.size >= searchesKept) searches.delete(searches.keys().next().value ?? "")
    searches.set(key, found)
    return found
  }

  return {
    version: ++lastVersion,
    size: byId.size,
    find: (id) => byId.get(id),
    list: (query) => {
      const found = matching(query)
      const start = offset(query)
      const slice = query.sortOrder === "ASC"
        ? found.slice(start, start + query.limit)
        : found.slice(Math.max(0, found.length - start - query.limit), Math.max(0, found.length - start)).reverse()
      return { games: slice.map((e) => e.game), total: found.length }
    },
    change: (upserted, removed) => {
      const next = new Map(byId)
      for (const id of removed) next.delete(id)
      for (const game of upserted) next.set(game.id, game)
      return make(next.values())
    }
  }
}
