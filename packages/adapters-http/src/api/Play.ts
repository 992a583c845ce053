import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as Problem from "./Problem.ts"

const Html = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html; charset=utf-8" }))
const Svg = Schema.String.pipe(HttpApiSchema.asText({ contentType: "image/svg+xml" }))

/** The built-in game page and the catalogue's images (no authentication). */
export class PlayApi extends HttpApiGroup.make("play", { topLevel: true })
  .add(
    HttpApiEndpoint.get("page", "/play/:gameId", {
      params: { gameId: Schema.String.check(Schema.isMaxLength(64)) },
      query: { token: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(4096))) },
      success: Html
    })
      .annotate(OpenApi.Summary, "The game page (the launch URL of built-in games)")
      .annotate(
        OpenApi.Description,
        "An iframe-friendly HTML page (`frame-ancestors *`) that redeems `token` once, shows the balance " +
          "(unless the merchant's `hideBalance`) and plays rounds with the session token. Scripts and styles " +
          "are inline with a per-response nonce; images and fonts may come from the merchant's branding URLs."
      ),
    HttpApiEndpoint.get("image", "/static/games/:file", {
      params: { file: Schema.String.check(Schema.isMaxLength(80)) },
      success: Svg,
      error: Problem.responses("GAME_NOT_FOUND")
    }).annotate(OpenApi.Summary, "The image of a built-in game (`<id>.svg`)")
  )
  .annotate(OpenApi.Title, "Game page")
{}
