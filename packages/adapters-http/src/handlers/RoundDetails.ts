import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { RoundLedger, RoundLinks } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Problem from "@gateway/client/api/Problem"
import { wantsJson } from "../csv/Accept.ts"
import { contentSecurityPolicy, renderRoundPage, RoundPageAssets } from "../page/RoundPage.ts"

const notFound = Problem.make("ROUND_NOT_FOUND", "no round at this link")

/**
 * A round's signed link: 404 unless the signature verifies (the same answer
 * as an unknown round), then the round as JSON or as its page; and the
 * page's code.
 */
export const RoundDetailsLive = HttpApiBuilder.group(
  Api,
  "roundDetails",
  Effect.fn(function*(handlers) {
    const links = yield* RoundLinks
    const ledger = yield* RoundLedger
    const assets = yield* RoundPageAssets
    const file = (body: string, contentType: string) =>
      Effect.succeed(HttpServerResponse.text(body, {
        contentType,
        headers: { "cache-control": "public, max-age=300", "x-content-type-options": "nosniff" }
      }))
    return handlers.handleAll({
      round: ({ params, query, request }) =>
        Effect.gen(function*() {
          if (!links.verify(params.roundId, query.sig)) return yield* Effect.fail(notFound)
          const round = yield* ledger.details(params.roundId).pipe(Effect.mapError(() => notFound))
          if (wantsJson(request.headers["accept"])) return round
          return HttpServerResponse.text(renderRoundPage(round), {
            contentType: "text/html; charset=utf-8",
            headers: {
              "content-security-policy": contentSecurityPolicy,
              "cache-control": "no-store",
              "referrer-policy": "no-referrer",
              "x-content-type-options": "nosniff",
              vary: "accept"
            }
          })
        }),
      script: () => file(assets.script, "text/javascript; charset=utf-8"),
      style: () => file(assets.style, "text/css; charset=utf-8")
    })
  })
)
