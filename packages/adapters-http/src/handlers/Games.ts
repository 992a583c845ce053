import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import {
  type ApiKey,
  AuditLog,
  GameCatalog,
  makeLaunchFor,
  LaunchToken,
  listGames,
  type Merchant,
  retireGameAudited,
  upsertGameAudited
} from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Ports from "../Ports.ts"
import { CurrentKeyPrefix, CurrentMerchant } from "@gateway/client/api/Security"
import { GameList } from "@gateway/client/api/Games"
import * as Problem from "@gateway/client/api/Problem"
import { GamePages, queryOf } from "../cache/GamePages.ts"
import * as Metrics from "../Metrics.ts"
import * as Actor from "./Actor.ts"

/**
 * A launch's answer as the API encodes its success (the `LaunchUrl` JSON,
 * then `cache-control: no-store`), written directly: both its fields are
 * their own encoding, so nothing goes through a schema on every launch.
 */
const launchAnswer = (url: LaunchToken.LaunchUrl) =>
  HttpServerResponse.text(JSON.stringify({ success: url.success, url: url.url }), { contentType: "application/json" }).pipe(
    HttpServerResponse.setHeader("cache-control", "no-store")
  )

/**
 * A launch of an authenticated key's merchant as the API answers it: the
 * launch URL, or its domain error as a problem; counted by outcome. The
 * endpoint's handler and the launches answered before routing
 * (`middleware/FastLaunch.ts`) both run this.
 */
export const launch = Effect.map(
  makeLaunchFor,
  (launchFor) => (merchant: Merchant.Merchant, request: LaunchToken.LaunchRequest, prefix: ApiKey.ApiKeyPrefix) =>
    launchFor(merchant, request, prefix).pipe(
      Effect.mapError(Problem.fromDomain),
      Effect.map(launchAnswer),
      Metrics.countLaunch
    )
)

/** The games list and launch URLs, for operators. */
export const GamesLive = HttpApiBuilder.group(
  Api,
  "games",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(GameCatalog)
    const pages = yield* GamePages
    const run = yield* launch
    return handlers.handleAll({
      list: ({ query, request }) => {
        const list = listGames({
          ...query,
          searchFields: query.searchFields ?? ["name", "id"]
        }).pipe(Effect.map((list) => new GameList(list)), provide)
        return pages.enabled ? pages.answer(queryOf(request.url), list) : list
      },
      generateLaunchUrl: ({ query }) =>
        Effect.flatMap(
          Effect.all([CurrentMerchant, CurrentKeyPrefix]),
          ([merchant, prefix]) => run(merchant, query, prefix)
        )
    })
  })
)

/** The catalogue, for the provider's admins; every change is recorded in the audit log with who made it. */
export const CatalogueLive = HttpApiBuilder.group(
  Api,
  "catalogue",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(GameCatalog, AuditLog)
    const actor = yield* Actor.make
    return handlers.handleAll({
      upsert: ({ params, payload }) => Effect.flatMap(actor, (who) => upsertGameAudited(params.id, { ...payload }, who)).pipe(provide),
      retire: ({ params }) =>
        Effect.flatMap(actor, (who) => retireGameAudited(params.id, who)).pipe(provide, Effect.mapError(Problem.fromDomain))
    })
  })
)
