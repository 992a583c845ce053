import { Context, Effect, Schema } from "effect"
import type { LaunchToken } from "@gateway/domain"
import { FindMyWay, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { GamesApi } from "@gateway/client/api/Games"
import type * as Problem from "@gateway/client/api/Problem"
import { launch } from "../handlers/Games.ts"
import { tagRoute } from "./KeptRoute.ts"
import * as OperatorAuth from "./OperatorAuth.ts"

const endpoint = GamesApi.endpoints.generateLaunchUrl
const path = endpoint.path
/**
 * The query as the endpoint decodes it (its own schema: the domain's `LaunchRequest` with the API's codecs
 * for strings), from the search parameters as the router parses them.
 */
const decodeQuery = Schema.decodeUnknownExit(
  Schema.toCodecArrayFromSingle(endpoint.query as Schema.Codec<LaunchToken.LaunchRequest, unknown>)
)
const router = FindMyWay.make<undefined>()
router.on("GET", path, undefined)

/**
 * Answers `GET /api/v1.1/operator-api/games/generate-launch-url?<query>` —
 * the hot path of every player's click — before routing: when its query
 * decodes as the endpoint's and its `sv-api-key` passes every check of
 * OperatorAuth (the key's rate limit charged), the launch runs exactly as
 * the endpoint's handler runs it ({@link launch}), without the router and
 * the API's middleware around it; its errors are the same problems. A query
 * that does not decode and a key refused for any reason go on to the
 * router, where the API answers them as always (in the contract's order:
 * the key first) — nothing has been charged for them here.
 */
export const make = Effect.map(
  Effect.all([launch, OperatorAuth.verify]),
  ([run, verify]) =>
  <E, R>(
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E | Problem.Problem, R | HttpServerRequest.HttpServerRequest> =>
    Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      const url = request.url
      if (request.method !== "GET" || !url.startsWith(path) || url[path.length] !== "?") return httpEffect
      const found = router.find("GET", url)
      const query = found === undefined ? undefined : decodeQuery(found.searchParams)
      if (query === undefined || query._tag === "Failure") return httpEffect
      return Effect.matchCauseEffect(verify(request), {
        onFailure: () => httpEffect,
        onSuccess: ({ key, merchant }) => {
          tagRoute(fiber, path)
          return run(merchant, query.value, key.prefix)
        }
      })
    })
)
