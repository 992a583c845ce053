import { Effect } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import {
  GameCatalog,
  Ids,
  launchFor,
  LaunchTokenSigner,
  listGames,
  OperatorDetails
} from "@gateway/domain"
import { Api } from "../api/Api.ts"
import * as Ports from "../Ports.ts"
import { CurrentKeyPrefix, CurrentMerchant } from "../api/Security.ts"
import { GameList } from "../api/Games.ts"
import * as Problem from "../api/Problem.ts"

const noStore = { "cache-control": "no-store" as const }

/** The games list and launch URLs, for operators. */
export const GamesLive = HttpApiBuilder.group(
  Api,
  "games",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(GameCatalog, OperatorDetails, LaunchTokenSigner, Ids)
    return handlers.handleAll({
      list: ({ query }) =>
        listGames({
          ...query,
          searchFields: query.searchFields ?? ["name", "id"]
        }).pipe(Effect.map((list) => new GameList(list)), provide),
      generateLaunchUrl: ({ query }) =>
        Effect.gen(function*() {
          const url = yield* launchFor(yield* CurrentMerchant, query, yield* CurrentKeyPrefix).pipe(
            provide,
            Effect.mapError(Problem.fromDomain)
          )
          return HttpApiSchema.withHeaders({ body: url, headers: noStore })
        })
    })
  })
)

/** The catalogue, for the provider's admins. */
export const CatalogueLive = HttpApiBuilder.group(
  Api,
  "catalogue",
  Effect.fn(function*(handlers) {
    const catalog = yield* GameCatalog
    return handlers.handleAll({
      upsert: ({ params, payload }) => catalog.upsert(params.id, { ...payload }),
      retire: ({ params }) => catalog.retire(params.id).pipe(Effect.mapError(Problem.fromDomain))
    })
  })
)
