import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { BuiltinGames, LaunchTokenVerifier, MerchantRepo, type MerchantSettings, PageLaunch } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Problem from "@gateway/client/api/Problem"
import { RateLimiter } from "../middleware/RateLimiter.ts"
import { gameImage } from "../page/GameImages.ts"
import { contentSecurityPolicy, newNonce, PageAssets, type PageSources, renderPage } from "../page/PlayPage.ts"

const defaults: PageSources = { frameAncestors: "*" }

/** What the page is served with for a launch token: its merchant's sources, its language and exit. */
interface Served {
  readonly sources: PageSources
  readonly launch: PageLaunch.PageLaunch
}
const unverified: Served = { sources: defaults, launch: { language: "en" } }

/**
 * The origin of a font style sheet (say `https://fonts.googleapis.com/css2?family=Inter`); undefined for a
 * font file, and for a plain-http URL stored before settings refused them (never allowed into the CSP).
 */
const stylesheetOrigin = (url: string | undefined): string | undefined => {
  if (url === undefined || /\.(woff2?|ttf|otf)([?#].*)?$/i.test(url)) return undefined
  const origin = URL.parse(url)?.origin
  return origin !== undefined && /^https:\/\/[A-Za-z0-9.:[\]-]+$/.test(origin) ? origin : undefined
}

/** What a merchant's settings let its page load, and who may frame it. */
const sourcesOf = (settings: MerchantSettings.MerchantSettings): PageSources => ({
  frameAncestors: settings.frameAncestors ?? defaults.frameAncestors,
  fontStylesheet: stylesheetOrigin(settings.fontFamilyUrl)
})

/** The game page and the built-in games' images. */
export const PlayLive = HttpApiBuilder.group(
  Api,
  "play",
  Effect.fn(function*(handlers) {
    const verifier = yield* LaunchTokenVerifier
    const merchants = yield* MerchantRepo
    const limiter = yield* RateLimiter
    const assets = yield* PageAssets
    /**
     * The page's sources for the merchant of a launch token, verified but not
     * redeemed (the page redeems it); the defaults for a token that does not
     * verify, whose page only shows why. A token whose signature does not
     * verify is a failed authentication of the client's address; a token that
     * verifies gets its merchant's page whatever its address failed before. An
     * expired token whose signature verifies (as a used one does) still gives
     * its language and exit: the page says it expired, in the player's
     * language, with the way back to the casino. It is not counted here: it was
     * issued, nobody guessed it, and its page's redemption counts it (once,
     * where it was counted twice). An unverified token gives neither.
     */
    const sourcesFor = (token: string | undefined): Effect.Effect<Served, never, HttpServerRequest.HttpServerRequest> =>
      token === undefined ? Effect.succeed(unverified) : Effect.gen(function*() {
        const address = limiter.addressOf(yield* HttpServerRequest.HttpServerRequest)
        const live = yield* Effect.option(verifier.verify(token))
        const claims = live._tag === "Some" ? live : yield* Effect.option(verifier.verify(token, { acceptExpired: true }))
        if (claims._tag === "None") {
          yield* Effect.ignore(limiter.failed(address))
          return unverified
        }
        return {
          sources: sourcesOf((yield* merchants.findById(claims.value.mid)).MerchantSettings),
          launch: PageLaunch.pageLaunchOf(claims.value)
        }
      }).pipe(Effect.catchCause(() => Effect.succeed(unverified)))
    return handlers.handleAll({
      page: ({ params, query }) =>
        Effect.map(sourcesFor(query.token), ({ launch, sources }) => {
          const nonce = newNonce()
          const html = renderPage({
            gameId: params.gameId,
            gameName: BuiltinGames.builtinGame(params.gameId)?.name ?? params.gameId,
            token: query.token,
            nonce,
            language: launch.language,
            // A retail shop's page (CONTRACT §11) has no exit, not even on its error screens.
            lobbyUrl: launch.shop === undefined ? launch.lobbyUrl : undefined
          }, assets)
          return HttpServerResponse.text(html, {
            contentType: "text/html; charset=utf-8",
            headers: {
              "content-security-policy": contentSecurityPolicy(nonce, sources),
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
