import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Option, type Redacted } from "effect"
import { LaunchPolicy, retiredKeyRetentionSeconds } from "@gateway/domain/LaunchPolicy"
import { AdminAuth, HttpLive, RateLimiter, RequestLimits } from "@gateway/adapters-http"
import { HttpIncomingMessage } from "effect/http"
import {
  DeliveryWorker,
  GameEngineNode,
  IdsNode,
  LaunchKeys,
  LaunchTokenSignerJwt,
  LaunchTokenVerifierJwt,
  MerchantCredentialsNode,
  MerchantSigningKeys,
  OperatorDetailsHttp,
  OperatorHttp,
  OperatorUrlPolicy,
  SignedPost,
  WalletClientHttp
} from "@gateway/adapters-operator"
import {
  ApiKeyRepoPg,
  CachedApiKeyRepo,
  CachedMerchantRepo,
  ChangeFeed,
  Database,
  DataCipher,
  DeliveryQueuePg,
  GameCatalogPg,
  GameSessionRepoPg,
  Housekeeping,
  LaunchKeyStorePg,
  MerchantRepoPg,
  ReadinessPg,
  RoundLedgerPg,
  StaleDebits
} from "@gateway/adapters-pg"
import { createServer } from "node:http"
import { GatewayConfig, publicBaseUrl } from "./Config.ts"
import * as Logging from "./Logging.ts"
import * as Secrets from "./Secrets.ts"

/** Launch tokens: issuer = the public base URL, lifetime from `LAUNCH_TOKEN_TTL_SECONDS`. */
const launchPolicy = (config: GatewayConfig) => ({ issuer: publicBaseUrl(config), ttlSeconds: config.launchTtlSeconds })

/** The launch keys: `LAUNCH_SIGNING_KEY` alone, else keys shared through the database. */
const launchKeys = (config: GatewayConfig) =>
  Option.match(config.launchSigningKey, {
    onSome: LaunchKeys.layerFixed,
    onNone: () =>
      LaunchKeyStorePg.layer({
        retention: `${retiredKeyRetentionSeconds(launchPolicy(config))} seconds`
      }).pipe(Layer.provide(LaunchKeys.generatorLayer))
  })

/**
 * The migrated database (from `DATABASE_URL`, else embedded in `DATA_DIR`)
 * with the repositories of the domain ports on it, uncached, and the
 * `node:crypto` generators of ids and credentials: what the ops CLI needs,
 * and what the background jobs read.
 */
export const repositories = (config: GatewayConfig, dataKey: Redacted.Redacted<Buffer>) =>
  Layer.mergeAll(
    MerchantRepoPg.layer,
    ApiKeyRepoPg.layer,
    GameCatalogPg.layer(publicBaseUrl(config)),
    GameSessionRepoPg.layer({ idleSeconds: config.gameSessionIdleSeconds }),
    RoundLedgerPg.layer,
    DeliveryQueuePg.layer(),
    ReadinessPg.layer,
    launchKeys(config),
    IdsNode.layer,
    MerchantCredentialsNode.layer
  ).pipe(
    Layer.provide(DataCipher.layer(dataKey)),
    Layer.provideMerge(ChangeFeed.layer()),
    Layer.provideMerge(Database.layer({ url: config.databaseUrl, dataDir: config.dataDir }))
  )

/**
 * The whole gateway from its configuration. The HTTP side reads merchants
 * and API keys through caches the change feed keeps fresh (the games
 * catalogue is in memory for everyone); the delivery worker and the
 * background jobs read the repositories themselves. Every call to an
 * operator goes through one signed-POST path with one cache of merchant keys.
 * Releasing it stops accepting connections, lets in-flight requests finish,
 * closes the pool and stops an embedded database.
 */
export const app = (
  config: GatewayConfig,
  adminTokens: AdminAuth.AdminTokenOptions,
  dataKey: Redacted.Redacted<Buffer>
) => {
  const caches = Layer.mergeAll(
    CachedMerchantRepo.layer(config.readCacheTtlMs),
    CachedApiKeyRepo.layer(config.apiKeyCacheTtlMs)
  )
  const httpPorts = Layer.mergeAll(
    caches,
    OperatorDetailsHttp.layer(config.detailsTimeoutMs),
    WalletClientHttp.layer(config.webhookTimeoutMs),
    LaunchTokenSignerJwt.layer,
    LaunchTokenVerifierJwt.layer,
    GameEngineNode.layer,
    OperatorUrlPolicy.layer(config.allowPrivateOperatorUrls),
    AdminAuth.layerTokens(adminTokens),
    RateLimiter.layer({ ...config.rateLimit, trustProxy: config.trustProxy }),
    Layer.succeed(HttpIncomingMessage.MaxBodySize, RequestLimits.maxBodySize(config.maxBodyBytes))
  )
  const server = NodeHttpServer.layer(createServer, {
    port: config.port,
    host: config.host,
    gracefulShutdownTimeout: "10 seconds"
  })
  const background = Layer.mergeAll(
    DeliveryWorker.layer({ timeoutMs: config.webhookTimeoutMs, schedule: config.webhookRetrySchedule }),
    StaleDebits.layerAfterTimeout(config.webhookTimeoutMs),
    Housekeeping.layer
  )
  const signedPost = SignedPost.layer.pipe(
    Layer.provide([MerchantSigningKeys.layer(), OperatorHttp.layer(config.allowPrivateOperatorUrls)])
  )
  return Layer.mergeAll(HttpLive.pipe(Layer.provide(server), Layer.provide(httpPorts)), background).pipe(
    Layer.provide(signedPost),
    Layer.provide(repositories(config, dataKey)),
    Layer.provide([Layer.succeed(LaunchPolicy, launchPolicy(config)), Logging.layer(config)])
  )
}

/** The gateway configured from the environment. */
export const AppLive = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* GatewayConfig
    return app(config, yield* Secrets.adminTokens(config), yield* Secrets.dataEncryptionKey(config))
  })
)
