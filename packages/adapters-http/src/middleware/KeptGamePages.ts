import { Context, Effect } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { GamesApi } from "@gateway/client/api/Games"
import { GamePages } from "../cache/GamePages.ts"
import { tagRoute } from "./KeptRoute.ts"
import * as OperatorAuth from "./OperatorAuth.ts"

const path = GamesApi.endpoints.list.path

/**
 * Answers `GET /api/v1.1/operator-api/games?<query>` with the answer kept
 * for that query string ({@link GamePages}) once the request's `sv-api-key`
 * has passed every check of OperatorAuth, its rate limit charged, without
 * routing, decoding and encoding it again: the answer the API gave for the
 * same query string, byte for byte, while the catalogue is unchanged. Any
 * other request, a query with nothing kept and a key refused for any reason
 * go on to the router, where the API answers as always.
 */
export const make = Effect.map(
  Effect.all([GamePages, OperatorAuth.verify]),
  ([pages, verify]) =>
  <E, R>(
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> => {
    if (!pages.enabled) return httpEffect
    return Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      const url = request.url
      if (request.method !== "GET" || !url.startsWith(path) || url[path.length] !== "?") return httpEffect
      return Effect.flatMap(pages.kept(url.slice(path.length + 1)), (kept) =>
        kept === undefined ? httpEffect : Effect.matchCauseEffect(verify(request), {
          onFailure: () => httpEffect,
          onSuccess: () => {
            tagRoute(fiber, path)
            return Effect.succeed(kept)
          }
        }))
    })
  }
)
