import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { randomBytes } from "node:crypto"
import { Api } from "../Api.ts"
import { builtinImages, gameImage } from "../play/GameImages.ts"
import { contentSecurityPolicy, renderPage } from "../play/PlayPage.ts"
import * as Problem from "../Problem.ts"

/** The games the page can play. */
const playable = new Set(["odd-even"])

/** The game page and the built-in games' images. */
export const PlayLive = HttpApiBuilder.group(
  Api,
  "play",
  Effect.fn(function*(handlers) {
    return handlers.handleAll({
      page: ({ params, query }) =>
        Effect.sync(() => {
          const nonce = randomBytes(16).toString("base64")
          const gameName = Object.hasOwn(builtinImages, params.gameId)
            ? builtinImages[params.gameId]?.name ?? params.gameId
            : params.gameId
          const html = renderPage({
            gameId: params.gameId,
            gameName,
            token: query.token,
            playable: playable.has(params.gameId),
            nonce
          })
          return HttpServerResponse.text(html, {
            contentType: "text/html; charset=utf-8",
            headers: {
              "content-security-policy": contentSecurityPolicy(nonce),
              "cache-control": "no-store",
              "referrer-policy": "no-referrer",
              "x-content-type-options": "nosniff"
            }
          })
        }),
      image: ({ params }) => {
        const svg = gameImage(params.file)
        return svg === undefined
          ? Effect.fail(Problem.make("GAME_NOT_FOUND", `no built-in game image '${params.file.slice(0, 80)}'`))
          : Effect.succeed(HttpServerResponse.text(svg, {
            contentType: "image/svg+xml",
            headers: {
              "cache-control": "public, max-age=86400",
              "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
              "x-content-type-options": "nosniff"
            }
          }))
      }
    })
  })
)
