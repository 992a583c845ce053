import { Effect, Schema, SchemaTransformation } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Game, LaunchToken, MerchantSettings, Paging, Validation } from "@gateway/domain"
import * as Problem from "./Problem.ts"
import { AdminAuth, KeyOperation, OperatorAuth } from "./Security.ts"

const PositiveInt = (field: string, max?: number) =>
  Schema.Int.annotate({ message: "must be an integer" }).check(
    Schema.isGreaterThanOrEqualTo(1, { message: "must be ≥ 1" }),
    ...(max === undefined ? [] : [Schema.isLessThanOrEqualTo(max, { message: `must be ≤ ${max}` })])
  ).annotate({ description: field })

/** `searchFields`, repeated (`searchFields=name&searchFields=id`) or comma separated (`searchFields=name,id`). */
export const SearchFields = Schema.Array(Schema.String).pipe(
  Schema.decodeTo(
    Schema.Array(Schema.String),
    SchemaTransformation.transform({
      decode: (values: ReadonlyArray<string>): ReadonlyArray<string> => values.flatMap((value) => value.split(",")).map((v) => v.trim()),
      encode: (fields: ReadonlyArray<string>) => fields
    })
  ),
  Schema.decodeTo(
    Schema.Array(Game.GameSearchField).check(Schema.isMinLength(1, { message: "must name at least one field" }))
  )
).annotate({ description: "fields to search in: any of `name`, `id`; repeated or comma separated; default both" })

/** The query of the games list, with the contract's defaults. */
export const GamesQuery = {
  page: PositiveInt("page number, ≥ 1, default 1").pipe(Schema.withDecodingDefaultKey(Effect.succeed(1))),
  limit: PositiveInt(`items per page, 1..${Game.maxPageSize}, default 20`, Game.maxPageSize).pipe(
    Schema.withDecodingDefaultKey(Effect.succeed(20))
  ),
  sortBy: Game.GameSortField.pipe(Schema.withDecodingDefaultKey(Effect.succeed("name" as const))),
  sortOrder: Game.SortOrder.pipe(Schema.withDecodingDefaultKey(Effect.succeed("ASC" as const))),
  search: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(128, { message: "must be at most 128 characters" }), Validation.isStorableText)
  ),
  searchFields: Schema.optionalKey(SearchFields)
}

/** The answer of the games list. */
export class GameList extends Schema.Class<GameList>("@gateway/adapters-http/GameList")(Schema.Struct({
  data: Schema.Array(Game.Game).annotate({ description: "The games of this page" }),
  meta: Paging.PageMeta
}).annotate({
  identifier: "GameList",
  description: "The answer of the games list."
})) {}

/**
 * A catalogue URL: an HttpUrl that a URL parser also reads (the pattern alone let `http://[::1` or a port
 * of 99999 into the catalogue, and every launch of the game then answered a broken link). Operator URLs
 * are parsed by the URL policy when settings are saved.
 */
const CatalogueUrl = MerchantSettings.HttpUrl.check(
  Schema.makeFilter((url: string) => URL.canParse(url) || "must be an absolute http(s) URL")
)

/** The body of a catalogue upsert. */
export class GameUpsert extends Schema.Class<GameUpsert>("@gateway/adapters-http/GameUpsert")(Schema.Struct({
  name: Schema.String.check(Schema.isTrimmed(), Schema.isNonEmpty(), Schema.isMaxLength(200), Validation.isStorableText)
    .annotateKey({ description: "The game's name, 1 to 200 characters without leading or trailing spaces" }),
  releaseDate: Schema.String.check(
    Schema.isPattern(/^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?$/u, {
      message: "must be an ISO 8601 date like \"2024-01-01\""
    })
  ).annotateKey({ description: "When the game was released: an ISO 8601 date, optionally with a time" }),
  baseLaunchUrl: CatalogueUrl.annotateKey({ description: "The game's page: a launch URL is it with the `token` query parameter" }),
  // The same bounds as Game.category (a PostgreSQL integer): a larger one was a 500.
  category: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2_147_483_647 })).annotateKey({
    description: "The game's category, 0 to 2147483647"
  }),
  imageUrl: CatalogueUrl.annotateKey({ description: "The game's image" })
}).annotate({
  identifier: "GameUpsert",
  description: "The body of a catalogue upsert."
})) {}

const noStore = { "cache-control": Schema.Literal("no-store") }

/** The operator's side of the catalogue: the games list and launch URLs (`sv-api-key`). */
export class GamesApi extends HttpApiGroup.make("games")
  .add(
    HttpApiEndpoint.get("generateLaunchUrl", "/games/generate-launch-url", {
      query: LaunchToken.LaunchRequest.fields,
      success: HttpApiSchema.WithHeaders(LaunchToken.LaunchUrl, noStore),
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "GAME_NOT_FOUND", ...Problem.launchRuleProblems)
    })
      .middleware(OperatorAuth)
      // Demo for the middleware; `launchFor` checks the mode itself once the query is decoded.
      .annotate(KeyOperation, "launchDemo")
      .annotate(OpenApi.Summary, "Generate a launch URL")
      .annotate(
        OpenApi.Description,
        "A signed launch link, to be used at once (`cache-control: no-store`). Checks in order: key (401/403; " +
          "`mode=real` with an `sv_test` key: 403) → " +
          "game (404 GAME_NOT_FOUND) → real mode: the operator's Details URL (504 OPERATOR_TIMEOUT, 502 " +
          "OPERATOR_BAD_RESPONSE, 422 PLAYER_REJECTED / DETAILS_URL_NOT_SET; 503 OPERATOR_UNAVAILABLE with `retry-after`, " +
          "without calling it, while the merchant's circuit breaker is open because its Details URL or wallet kept " +
          "failing) → real mode with a `shopId`: the " +
          "operator's `shopDetailsUrl` (CONTRACT §11: 422 SHOP_DETAILS_URL_NOT_SET when none is set, 422 SHOP_REJECTED " +
          "for a blocked shop or a 4xx, 504 OPERATOR_TIMEOUT, 502 OPERATOR_BAD_RESPONSE) → currency: the `currency` " +
          "parameter, the player's and the shop's must be the merchant's (422 CURRENCY_MISMATCH) → token. The shop's " +
          "stake limits narrow the merchant's for the session; a demo launch with a `shopId` asks no one and shows the " +
          "cashier's page named by the id."
      ),
    HttpApiEndpoint.get("list", "/games", {
      query: GamesQuery,
      success: GameList,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN")
    })
      .middleware(OperatorAuth)
      .annotate(KeyOperation, "listGames")
      .annotate(OpenApi.Summary, "List games")
      .annotate(
        OpenApi.Description,
        "A page of the catalogue, searched case-insensitively and sorted stably (ties by id). " +
          "A neighbour page that does not exist is 0. Unknown parameter values: 400 VALIDATION_FAILED."
      )
  )
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Games")
  .annotate(
    OpenApi.Description,
    "The operator's side of the catalogue (`sv-api-key`): list the games and generate signed launch URLs " +
      "for a player, in real or demo mode."
  )
{}

/** The provider's admins keep the catalogue (bearer, `write:users`). */
export class CatalogueApi extends HttpApiGroup.make("catalogue")
  .add(
    HttpApiEndpoint.put("upsert", "/games/:id", {
      params: { id: Game.GameId },
      payload: GameUpsert,
      success: Game.Game,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN")
    }).annotate(OpenApi.Summary, "Add or change a game"),
    HttpApiEndpoint.delete("retire", "/games/:id", {
      params: { id: Game.GameId },
      success: HttpApiSchema.NoContent.annotate({ description: "Retired: no longer listed or launchable; no body" }),
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "GAME_NOT_FOUND")
    }).annotate(OpenApi.Summary, "Retire a game (no longer listed or launchable)")
  )
  .middleware(AdminAuth)
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Catalogue")
  .annotate(
    OpenApi.Description,
    "The provider's admins keep the catalogue (bearer, `write:users`): add or change a game, retire one."
  )
{}
