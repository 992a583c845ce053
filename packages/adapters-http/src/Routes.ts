import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/client/api/Api"
import * as GamePages from "./cache/GamePages.ts"
import { BackofficeLive, BackofficeSignInLive } from "./handlers/Backoffice.ts"
import { BackofficePageLive } from "./handlers/BackofficePage.ts"
import { BackofficeOpsLive } from "./handlers/BackofficeOps.ts"
import { DeliveriesLive } from "./handlers/Deliveries.ts"
import { AuditLive, SecretsLive } from "./handlers/Secrets.ts"
import { FreeRoundsLive } from "./handlers/FreeRounds.ts"
import { CatalogueLive, GamesLive } from "./handlers/Games.ts"
import { GameSessionsLive } from "./handlers/GameSessions.ts"
import { MerchantsLive } from "./handlers/Merchants.ts"
import { PlayLive } from "./handlers/Play.ts"
import { ReportsLive } from "./handlers/Reports.ts"
import { RevenueShareLive } from "./handlers/RevenueShare.ts"
import { RoundDetailsLive } from "./handlers/RoundDetails.ts"
import { SessionControlLive } from "./handlers/SessionControl.ts"
import { SettingsLive } from "./handlers/Settings.ts"
import { SystemLive } from "./handlers/System.ts"
import { logRequests } from "./middleware/AccessLog.ts"
import * as AdminAuth from "./middleware/AdminAuth.ts"
import * as BackofficeAuth from "./middleware/BackofficeAuth.ts"
import * as Docs from "./Docs.ts"
import * as FastLaunch from "./middleware/FastLaunch.ts"
import * as FastRound from "./middleware/FastRound.ts"
import * as KeptGamePages from "./middleware/KeptGamePages.ts"
import * as OperatorAuth from "./middleware/OperatorAuth.ts"
import { noStoreByDefault } from "./middleware/CacheControl.ts"
import { answerProblems } from "./middleware/ProblemResponses.ts"
import { limitBodies } from "./middleware/RequestLimits.ts"
import * as RouteTable from "./middleware/RouteTable.ts"
import * as SessionAuth from "./middleware/SessionAuth.ts"

const documents = [["GET", "/openapi.json"], ["GET", "/docs"], ["GET", Docs.scriptPath], ["GET", Docs.stylePath]] as const

const Handlers = Layer.mergeAll(
  MerchantsLive,
  GamesLive,
  CatalogueLive,
  SettingsLive,
  SystemLive,
  DeliveriesLive,
  SecretsLive,
  AuditLive,
  GameSessionsLive,
  PlayLive,
  ReportsLive,
  RevenueShareLive,
  BackofficeSignInLive,
  BackofficeLive,
  BackofficeOpsLive,
  RoundDetailsLive,
  SessionControlLive,
  FreeRoundsLive,
  BackofficePageLive
).pipe(
  Layer.provide([AdminAuth.layer, OperatorAuth.layer, SessionAuth.layer, BackofficeAuth.layer])
)

/** The routes served (the API's and the documents'), for logs, 405s and span names outside the router. */
export const routes = RouteTable.make(Api, documents)

/**
 * Every route of the gateway on the `HttpRouter`: the API, `/openapi.json`,
 * `/docs` (Scalar, its script served here: no CDN), bounded request bodies (413), the
 * problem+json error handling, `cache-control: no-store` unless an answer
 * says otherwise, one access-log line per request, and the games pages kept
 * encoded, and launches and rounds answered before routing once the key or
 * session token and the input pass their checks.
 */
export const Routes = Layer.mergeAll(
  HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(Layer.provide(Handlers)),
  Docs.layer("/openapi.json"),
  HttpRouter.middleware(
    Effect.map(
      Effect.all([KeptGamePages.make, FastLaunch.make, FastRound.make]),
      ([keptPages, fastLaunch, fastRound]) => (httpEffect) =>
        logRequests(routes)(noStoreByDefault(answerProblems(routes)(limitBodies(fastRound(fastLaunch(keptPages(httpEffect)))))))
    ),
    { global: true }
  )
).pipe(Layer.provide(GamePages.layer))

/**
 * The HTTP app: serve it with a server layer, e.g.
 * `HttpLive.pipe(Layer.provide(NodeHttpServer.layer(createServer, { port })))`,
 * and provide the domain ports, `AdminTokens` and `RateLimiter`.
 */
export const HttpLive = HttpRouter.serve(Routes, { disableLogger: true })
