/**
 * What each measured endpoint sends. Every request takes the next API key
 * (or session) in turn, so caches keyed by key see many keys, and launches
 * vary game, player and session ids.
 */
import type { Load } from "./autocannon.ts"
import type { Seeded, SeededKey } from "./seed.ts"

/** An endpoint measured against the gateway and, when it has one, the baseline. */
export interface Scenario {
  readonly name: string
  readonly load: Load
  /** False for endpoints the baseline does not implement (rounds). */
  readonly baseline: boolean
}

const cycle = <A>(items: ReadonlyArray<A>): (() => A) => {
  if (items.length === 0) throw new Error("nothing to rotate over")
  let at = 0
  return () => {
    const item = items[at % items.length]
    at++
    if (item === undefined) throw new Error("rotation out of range")
    return item
  }
}

const operatorApi = "/api/v1.1/operator-api"

const listing = (name: string, query: string, keys: ReadonlyArray<SeededKey>): Scenario => {
  const key = cycle(keys)
  return {
    name,
    baseline: true,
    load: { method: "GET", next: () => ({ path: `${operatorApi}/games?${query}`, headers: { "sv-api-key": key().key } }) }
  }
}

const launching = (name: string, keys: ReadonlyArray<SeededKey>, gameIds: ReadonlyArray<string>): Scenario => {
  const key = cycle(keys)
  const game = cycle(gameIds.slice(0, 500))
  let n = 0
  return {
    name,
    baseline: true,
    load: {
      method: "GET",
      next: () => {
        n++
        return {
          path: `${operatorApi}/games/generate-launch-url?gameId=${game()}&playerId=p-${n % 5000}&sessionId=s-${n}&mode=real`,
          headers: { "sv-api-key": key().key }
        }
      }
    }
  }
}

/** The endpoints both servers answer. */
export const operatorScenarios = (seeded: Seeded): Array<Scenario> => {
  const all = [...seeded.fastKeys, ...seeded.slowKeys]
  return [
    listing("games page", "limit=20&page=7", all),
    listing("sorted page", "sortBy=releaseDate&sortOrder=DESC&limit=20&page=3", all),
    listing("search", "search=Game%2000&limit=20", all),
    launching("launch, operator at once", seeded.fastKeys, seeded.gameIds),
    launching("launch, operator +20 ms", seeded.slowKeys, seeded.gameIds)
  ]
}

/** A round of odd-even (1.00 on odd) for the next session of `session`; gateway only. */
export const roundScenario = (name: string, session: () => string): Scenario => ({
  name,
  baseline: false,
  load: {
    method: "POST",
    next: () => ({
      path: "/api/v1.1/game-api/rounds",
      headers: { "content-type": "application/json", authorization: `Bearer ${session()}` },
      body: "{\"stake\":\"1.00\",\"selection\":\"odd\"}"
    })
  }
})
