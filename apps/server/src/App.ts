import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { AuthBearer, HttpLive, Readiness } from "@gateway/adapters-http"
import * as ApiKeyCache from "@gateway/adapters-http/ApiKeyCache"
import { LaunchKeys } from "@gateway/adapters-http/LaunchKeys"
import { WebhookDeliveries } from "@gateway/adapters-http/WebhookDeliveries"
import { DeliveryQueue } from "@gateway/adapters-operator/DeliveryQueue"
import * as DeliveryWorker from "@gateway/adapters-operator/DeliveryWorker"
import * as GameEngine from "@gateway/adapters-operator/GameEngine"
import { LaunchKeyStore } from "@gateway/adapters-operator/LaunchKeyStore"
import * as LaunchTokenVerifier from "@gateway/adapters-operator/LaunchTokenVerifier"
import * as WalletClient from "@gateway/adapters-operator/WalletClient"
import { Housekeeping, RoundLedgerPg } from "@gateway/adapters-pg"
import * as RateLimiter from "@gateway/adapters-http/RateLimiter"
import * as ReadCache from "@gateway/adapters-http/ReadCache"
import * as OperatorUrlPolicy from "@gateway/adapters-operator/OperatorUrlPolicy"
import * as DetailsClient from "@gateway/adapters-operator/DetailsClient"
import * as LaunchSigner from "@gateway/adapters-operator/LaunchSigner"
import { OperatorHttp } from "@gateway/adapters-operator/OperatorHttp"
import { createServer } from "node:http"
import { launchPolicyLayer, logLevelLayer, ServerConfig } from "./Config.ts"
import { PersistenceLive } from "./Persistence.ts"

/** Ready when the database answers `SELECT 1`. */
const ReadinessLive = Layer.effect(
  Readiness,
  Effect.map(SqlClient, (sql) =>
    Readiness.of({ check: sql`SELECT 1`.pipe(Effect.as(true), Effect.orElseSucceed(() => false)) }))
)

/** The JWKS route and key rotation, over the shared launch key store. */
const LaunchKeysLive = Layer.effect(
  LaunchKeys,
  Effect.map(LaunchKeyStore, (store) => LaunchKeys.of({ publicKeys: store.publicKeys, rotate: store.rotate }))
)

const HttpServerLive = Layer.unwrap(
  Effect.map(ServerConfig, (config) =>
    NodeHttpServer.layer(createServer, {
      port: config.port,
      host: config.host,
      gracefulShutdownTimeout: "10 seconds"
    }))
)

/**
 * The whole gateway: HTTP server, API, operator calls and the database,
 * configured from the environment. Releasing it stops accepting connections,
 * lets in-flight requests finish, closes the pool and stops an embedded
 * database.
 */
/** The admin endpoints' view of the outbox. */
const WebhookDeliveriesLive = Layer.effect(
  WebhookDeliveries,
  Effect.map(DeliveryQueue, (q) =>
    WebhookDeliveries.of({ listFailed: q.listFailed, redeliver: q.redeliver, enqueueTest: q.enqueueTest }))
)

export const AppLive = Layer.mergeAll(
  HttpLive.pipe(Layer.provide(HttpServerLive)),
  DeliveryWorker.layerConfig,
  RoundLedgerPg.layerRecoveryConfig,
  Housekeeping.layer
).pipe(
  Layer.provide([
    DetailsClient.layerConfig,
    LaunchSigner.layer,
    LaunchTokenVerifier.layer,
    WalletClient.layerConfig,
    GameEngine.layer,
    WebhookDeliveriesLive,
    LaunchKeysLive,
    ReadinessLive,
    AuthBearer.layerConfig,
    RateLimiter.layerConfig,
    OperatorUrlPolicy.layerConfig,
    ApiKeyCache.layerConfig,
    ReadCache.layerConfig
  ]),
  Layer.provide(OperatorHttp.layerConfig),
  Layer.provide(PersistenceLive),
  Layer.provide([launchPolicyLayer, logLevelLayer])
)
