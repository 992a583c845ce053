import { Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import { HttpServerResponse as Response } from "effect/http"

/**
 * `cache-control: no-store` on every answer that does not say otherwise (the
 * JWKS, the game page's images): API answers are per credential, and some
 * carry secrets shown once (a new merchant's password and keys, an issued API
 * key), which no browser, proxy or CDN may keep.
 */
export const noStoreByDefault = <E, R>(
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> =>
  Effect.map(httpEffect, (response) =>
    response.headers["cache-control"] === undefined ? Response.setHeader(response, "cache-control", "no-store") : response)
