import { Effect, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { FreeRound, Validation } from "@gateway/domain"
import * as Problem from "./Problem.ts"
import { KeyOperation, OperatorAuth } from "./Security.ts"

const PositiveInt = (description: string, max?: number) =>
  Schema.Int.annotate({ message: "must be an integer" }).check(
    Schema.isGreaterThanOrEqualTo(1, { message: "must be ≥ 1" }),
    ...(max === undefined ? [] : [Schema.isLessThanOrEqualTo(max, { message: `must be ≤ ${max}` })])
  ).annotate({ description })

/** The query of a player's grants: the player, then `page` and `limit` as in every list (CONTRACT §1). */
export const GrantsQuery = {
  playerId: Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(128), Validation.isStorableText).annotate({
    description: "the player whose grants to list"
  }),
  page: PositiveInt("page number, ≥ 1, default 1").pipe(Schema.withDecodingDefaultKey(Effect.succeed(1))),
  limit: PositiveInt("items per page, 1..100, default 20", 100).pipe(Schema.withDecodingDefaultKey(Effect.succeed(20)))
}

const liveOnly = "Live keys only: an `sv_test` key is 403 FORBIDDEN (free rounds are real money)."

/** Free rounds (CONTRACT §13): grant a player rounds of a game at a stake, list them, cancel what is left. */
export class FreeRoundsApi extends HttpApiGroup.make("freeRounds")
  .add(
    HttpApiEndpoint.post("grant", "/free-rounds", {
      payload: FreeRound.GrantRequest,
      success: FreeRound.FreeRoundGrant.pipe(HttpApiSchema.status(201)),
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "GAME_NOT_FOUND")
    })
      .annotate(KeyOperation, "write")
      .annotate(OpenApi.Summary, "Grant a player free rounds")
      .annotate(
        OpenApi.Description,
        `\`rounds\` (1 to ${FreeRound.maxRounds}) rounds of the built-in game \`gameId\` (one of the catalogue: else 404 ` +
          "GAME_NOT_FOUND), each at `stake` — a decimal string of the merchant's currency within its [minimumStake, " +
          "maximumStake] — lapsing at `expiresAt` (in the future, at most " + FreeRound.maxLifetimeDays + " days " +
          "ahead). `campaignId` (1 to 64 characters) and `playerId` (1 to 128) are the operator's. Anything else is " +
          "400 VALIDATION_FAILED naming the field. The same `campaignId` granted again to the same player and game " +
          "answers the first grant unchanged: a retried request never grants twice. The player's sessions of the " +
          "game list the grant (`freeRounds` of `POST game-api/sessions`) and play it with " +
          "`POST game-api/rounds {selection, freeRound: true}`: no debit is sent, a win is a credit carrying " +
          "`data.freeRound` and the round's `roundDetailsUrl`, a loss sends no credit; with a `callbackUrl`, each " +
          "free round, won or lost, sends `round.settled`. " + liveOnly
      ),
    HttpApiEndpoint.get("list", "/free-rounds", {
      query: GrantsQuery,
      success: FreeRound.GrantList,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN")
    })
      .annotate(KeyOperation, "readRealMoney")
      .annotate(OpenApi.Summary, "List a player's grants of free rounds")
      .annotate(
        OpenApi.Description,
        "The merchant's grants to `playerId`, newest first, paged like every list, each with what is left " +
          "(`remaining`) and its `status`: `active`, `used` (every round played), `cancelled` or `expired`. " + liveOnly
      ),
    HttpApiEndpoint.delete("cancel", "/free-rounds/:id", {
      params: { id: Schema.String.check(Schema.isMaxLength(64)) },
      success: FreeRound.FreeRoundGrant,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "GRANT_NOT_FOUND")
    })
      .annotate(KeyOperation, "write")
      .annotate(OpenApi.Summary, "Cancel what is left of a grant")
      .annotate(
        OpenApi.Description,
        "The grant's rounds not yet played are given up at once (`remaining` 0, `status` `cancelled`); rounds " +
          "played before stay played, and a round under way when the cancellation arrives finishes. Cancelling again " +
          "answers the grant as it is. Another merchant's grant, or none: 404 GRANT_NOT_FOUND. " + liveOnly
      )
  )
  .middleware(OperatorAuth)
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Free rounds")
  .annotate(
    OpenApi.Description,
    "Free rounds for players (`sv-api-key`, live keys only): grant a player rounds of a game at a stake, list them, " +
      "cancel what is left. The operator pays their wins; no stake is taken from the player."
  )
{}
