import { Context, Effect, Layer, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { GameCatalog } from "@gateway/domain"
import { GameList } from "@gateway/client/api/Games"
import * as ResponseCache from "./ResponseCache.ts"

/**
 * How many answers of the games list are kept: by default 1,024 answers and
 * 2 MB (bodies and query strings counted). `maxBytes` 0 keeps none, and the
 * API encodes every page itself.
 */
export const GamePagesOptions = Context.Reference<ResponseCache.ResponseCacheOptions>(
  "@gateway/adapters-http/cache/GamePages/GamePagesOptions",
  { defaultValue: () => ({ maxEntries: 1024, maxBytes: 2 * 1024 * 1024 }) }
)

/** The query string of a request URL (what follows the first `?`; empty when there is none). */
export const queryOf = (url: string): string => {
  const at = url.indexOf("?")
  return at < 0 ? "" : url.slice(at + 1)
}

/**
 * Finished answers of the games list (status, headers, JSON bytes), by query
 * string, kept while the catalogue keeps its version. The same query string
 * decodes to the same query, so it answers the same bytes until a game is
 * added, changed or retired.
 */
export class GamePages extends Context.Service<GamePages, {
  /** False when nothing is kept (`maxBytes` 0). */
  readonly enabled: boolean
  /** The answer kept for `query` (a query string), made from the catalogue as it is now. */
  kept(query: string): Effect.Effect<HttpServerResponse.HttpServerResponse | undefined>
  /**
   * The answer kept for `query`, else `list` encoded as the API encodes a
   * GameList, then kept under the catalogue's version read before listing.
   */
  answer<E, R>(query: string, list: Effect.Effect<GameList, E, R>): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
}>()("@gateway/adapters-http/cache/GamePages") {}

const encodeList = Schema.encodeSync(GameList)
const utf8 = new TextEncoder()

/** The answer the API gives for `list`: `JSON.stringify` of its encoded form, `application/json`, 200. */
const encode = (list: GameList) => {
  const body = utf8.encode(JSON.stringify(encodeList(list)))
  return { body, response: HttpServerResponse.uint8Array(body, { contentType: "application/json" }) }
}

/** The kept pages over the catalogue, bounded by {@link GamePagesOptions}. */
export const layer: Layer.Layer<GamePages, never, GameCatalog> = Layer.effect(
  GamePages,
  Effect.gen(function*() {
    const catalog = yield* GameCatalog
    const options = yield* GamePagesOptions
    const cache = ResponseCache.make(options)
    return GamePages.of({
      enabled: options.maxBytes > 0,
      kept: (query) => Effect.map(catalog.version, (version) => cache.get(version, query)),
      answer: (query, list) =>
        Effect.flatMap(catalog.version, (version) => {
          const kept = cache.get(version, query)
          if (kept !== undefined) return Effect.succeed(kept)
          return Effect.map(list, (value) => {
            const { body, response } = encode(value)
            cache.set(version, query, response, body.length)
            return response
          })
        })
    })
  })
)
