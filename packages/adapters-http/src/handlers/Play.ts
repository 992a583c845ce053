import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { BuiltinEngine, BuiltinGames } from "@gateway/domain"
import { Api } from "../api/Api.ts"
import * as Problem from "../api/Problem.ts"
import { gameImage } from "../page/GameImages.ts"
import { contentSecurityPolicy, newNonce, renderPage } from "../page/PlayPage.ts"

/** The game page and the built-in games' images. */
export const PlayLive = HttpApiBuilder.group(
  Api,
  "play",
  Effect.fn(function*(handlers) {
    return handlers.handleAll({
      page: ({ params, query }) =>
        Effect.sync(() => {
          const nonce = newNonce()
          const gameName = BuiltinGames.builtinGame(params.gameId)?.name ?? params.gameId
          const html = renderPage({
            gameId: params.gameId,
            gameName,
            token: query.token,
            playable: BuiltinEngine.isPlayable(params.gameId),
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
