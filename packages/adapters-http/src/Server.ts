import { Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { Api } from "./Api.ts"
import * as AuthApiKey from "./AuthApiKey.ts"
import { AdminAuthLive } from "./AuthBearer.ts"
import * as AuthSession from "./AuthSession.ts"
import { DeliveriesLive } from "./handlers/Deliveries.ts"
import { CatalogueLive, GamesLive } from "./handlers/Games.ts"
import { GameSessionsLive } from "./handlers/GameSessions.ts"
import { MerchantsLive } from "./handlers/Merchants.ts"
import { PlayLive } from "./handlers/Play.ts"
import { SettingsLive } from "./handlers/Settings.ts"
import { SystemLive } from "./handlers/System.ts"
import * as ProblemMiddleware from "./ProblemMiddleware.ts"

const documents = [["GET", "/openapi.json"], ["GET", "/docs"]] as const

const Handlers = Layer.mergeAll(
  MerchantsLive,
  GamesLive,
  CatalogueLive,
  SettingsLive,
  SystemLive,
  DeliveriesLive,
  GameSessionsLive,
  PlayLive
).pipe(
  Layer.provide([AdminAuthLive, AuthApiKey.layer, AuthSession.layer])
)

/**
 * Every route of the gateway on the `HttpRouter`: the API, `/openapi.json`,
 * `/docs` (Scalar, bundled: no CDN) and the problem+json error handling.
 */
export const Routes = Layer.mergeAll(
  HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(Layer.provide(Handlers)),
  HttpApiScalar.layer(Api, { path: "/docs", scalar: { withDefaultFonts: false } }),
  ProblemMiddleware.layer(ProblemMiddleware.routeTable(Api, documents))
)

/**
 * The HTTP app: serve it with a server layer, e.g.
 * `HttpLive.pipe(Layer.provide(NodeHttpServer.layer(createServer, { port })))`,
 * and provide the domain ports, `Readiness`, `BearerAuth`, `LaunchKeys` and `WebhookDeliveries`.
 */
export const HttpLive = HttpRouter.serve(Routes)
