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
      success: Html,
      error: Problem.responses()
    })
      .annotate(OpenApi.Summary, "The game page (the launch URL of built-in games)")
      .annotate(
        OpenApi.Description,
        "A mobile-first, iframe-friendly HTML page (100% of its frame) that redeems `token` once and then, with the " +
          "session token: shows the merchant's lobby (unless the launch disabled it), plays each built-in game with " +
          "its own controls, pay table and RTP, animates the draw (still under `prefers-reduced-motion`), shows the " +
          "balance (unless `hideBalance`), this session's round history, and the provably-fair panel: the committed " +
          "server seed hash, a new client seed (revealing the previous server seed) and the verification of a round " +
          "in the browser (WebCrypto HMAC-SHA256). Scripts and styles are inline with a per-response CSP nonce (no " +
          "third-party code); the API is called on the page's own origin; images may come over https (the " +
          "merchant's logo and cup), fonts from the merchant's `fontFamilyUrl` when it is https (settings refuse " +
          "plain-http branding URLs; one stored before is never put into the CSP). `frame-ancestors` is the merchant's " +
          "`frameAncestors` setting (default `*`), read from the launch token's merchant without redeeming it."
      ),
    HttpApiEndpoint.get("image", "/static/games/:file", {
      params: { file: Schema.String.check(Schema.isMaxLength(80)) },
      success: Svg,
      error: Problem.responses("GAME_NOT_FOUND")
    }).annotate(OpenApi.Summary, "The image of a built-in game (`<id>.svg`)")
  )
  .annotate(OpenApi.Title, "Game page")
  .annotate(
    OpenApi.Description,
    "The built-in games' HTML page (the launch URL of built-in games) and their images; no authentication " +
      "(the page redeems the launch token itself)."
  )
{}
