import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, Option } from "effect"
import { LaunchPolicy, resumableKeyRetentionSeconds, retiredKeyRetentionSeconds } from "@gateway/domain/LaunchPolicy"
import { MerchantId } from "@gateway/domain/Merchant"
import { AdminAuth, Backoffice, Drain, HttpLive, Metrics, RequestLimits, RuntimeMetrics } from "@gateway/adapters-http"
import { HttpIncomingMessage } from "effect/http"
import * as Shared from "./Shared.ts"
import { PageAssets } from "@gateway/adapters-http/page/PlayPage"
import { playAssets, roundAssets } from "@gateway/play/assets"
import { RoundPageAssets } from "@gateway/adapters-http/page/RoundPage"
import { BackofficeAssets } from "@gateway/adapters-http/page/BackofficePage"
import { backofficeAssets } from "@gateway/backoffice/assets"
import {
  BackofficeSecretsNode,
  DeliveryWorker,
  FairRandomNode,
  IdsNode,
  LaunchKeys,
  LaunchTokenSignerJwt,
  LaunchTokenVerifierJwt,
  MailerNode,
  MerchantCredentialsNode,
  MerchantSigningKeys,
  OperatorDetailsHttp,
  OperatorHttp,
  OperatorUrlPolicy,
  PasswordHash,
  RoundLinksHmac,
  SignedPost,
  WebhookDesk,
  WalletClientHttp
} from "@gateway/adapters-operator"
import {
  ApiKeyRepoPg,
  AuditLogPg,
  BackofficeStorePg,
  CachedApiKeyRepo,
  CachedMerchantRepo,
  ChangeFeed,
  Database,
  DataCipher,
  DeliveryQueuePg,
  FreeRoundsPg,
  GameCatalogPg,
  GameSessionRepoPg,
  Housekeeping,
  LaunchKeyStorePg,
  MerchantRepoPg,
  MetricsRefreshPg,
  OutboxHandoff,
  ReadinessPg,
  ReportsPg,
  RoundLedgerPg,
  RoundLinkKeysPg,
  SessionEnds,
  StaleDebits
} from "@gateway/adapters-pg"
import { RoundLinks } from "@gateway/domain/ports/RoundLinks"
import { createServer, type Server, type ServerResponse } from "node:http"
import { join } from "node:path"
import type { Duplex } from "node:stream"
import { GatewayConfig, publicBaseUrl } from "./Config.ts"
import * as Connections from "./Connections.ts"
import * as Lifecycle from "./Lifecycle.ts"
import * as Logging from "./Logging.ts"
import * as Secrets from "./Secrets.ts"
import * as Tracing from "./Tracing.ts"
import { reportLimits } from "./ReportLimits.ts"

/** A request head (request line and headers) may be this large: room for every documented parameter at its longest. */
const maxHeadBytes = 32 * 1024

/**
 * How long an idle keep-alive connection stays open: longer than the idle time-out of the usual load balancers
 * (60 s), so that the balancer or client, never the gateway, ends an idle connection. With Node's 5 s a client
 * that reused a connection just as the gateway closed it lost its request ("other side closed"), which a
 * balancer answers with a 502.
 */
const keepAliveMs = 65_000

/**
 * A request Node could not take, answered as problem+json before any
 * handler runs (Node's own answer has no body), and the connection closed:
 * a head over {@link maxHeadBytes} is 431 HEADERS_TOO_LARGE, a request whose
 * head or body did not arrive within `HTTP_HEADERS_TIMEOUT_MS` /
 * `HTTP_REQUEST_TIMEOUT_MS` is 408 REQUEST_TIMEOUT, anything else 400 naming
 * the parser's reason (a fixed text, never the request's bytes). The 408
 * also closes a connection on which nothing came at all: browsers open
 * connections ahead of need, and a request put on one just as it was closed
 * reads this answer as its own. A 408 there is the signal on which Chromium
 * sends the request again on a new connection; the 400 this once was
 * reached the back office's page as the answer to its request. Nothing is
 * written when an answer of this connection has already started (as Node
 * does): bytes after it would corrupt the answer the client is reading.
 */
const answerClientError = (inProgress: WeakMap<Duplex, ServerResponse>) =>
(error: Error & { readonly code?: string; readonly reason?: unknown }, socket: Duplex) => {
  if (!socket.writable || inProgress.get(socket)?.headersSent === true) return socket.destroy()
  const [status, code, title, detail] = error.code === "HPE_HEADER_OVERFLOW"
    ? [431, "HEADERS_TOO_LARGE", "Request Header Fields Too Large", `the request line and headers exceed ${maxHeadBytes} bytes`]
    : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
    ? [408, "REQUEST_TIMEOUT", "Request Timeout", "the request did not arrive in time"]
    : [
      400,
      "VALIDATION_FAILED",
      "Bad Request",
      `the request could not be parsed${typeof error.reason === "string" ? ` (${error.reason})` : ""}`
    ]
  const body = JSON.stringify({ success: false, status, code, title, detail })
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `cache-control: no-store\r\nconnection: close\r\n\r\n${body}`
  )
}

/**
 * The Node HTTP server. Closing it (SIGTERM) stops accepting connections,
 * but Node goes on serving requests that arrive on open keep-alive
 * connections, and keeps a connection open after the answer it was busy
 * with: a busy client held the drain open until its time-out and then had
 * its requests cut. Once closing, every answer not yet started says
 * `connection: close`, so each connection ends after its current request.
 * Slow and numerous clients are bounded by `config.connections`.
 */
const drainingServer = (config: GatewayConfig) => (): Server => {
  const server = createServer({
    maxHeaderSize: maxHeadBytes,
    keepAliveTimeout: keepAliveMs,
    ...Connections.serverOptions(config.connections)
  })
  Connections.limit(server, config.connections, config.trustProxy)
  const answering = new Set<ServerResponse>()
  /** Each connection's answer in progress, so that a client error does not write into it. */
  const current = new WeakMap<Duplex, ServerResponse>()
  server.on("clientError", answerClientError(current))
  let closing = false
  const close = server.close.bind(server)
  server.close = (callback) => {
    closing = true
    for (const response of answering) if (!response.headersSent) response.setHeader("connection", "close")
    return close(callback)
  }
  server.on("request", (_request, response) => {
    const socket: Duplex | null = response.socket
    if (socket !== null) current.set(socket, response)
    if (closing) response.setHeader("connection", "close")
    else answering.add(response)
    response.once("close", () => {
      answering.delete(response)
      if (socket !== null && current.get(socket) === response) current.delete(socket)
    })
  })
  return server
}

/** Launch tokens: issuer = the public base URL, lifetime from `LAUNCH_TOKEN_TTL_SECONDS`. */
const launchPolicy = (config: GatewayConfig) => ({ issuer: publicBaseUrl(config), ttlSeconds: config.launchTtlSeconds })

/** The launch keys: `LAUNCH_SIGNING_KEY` alone, else keys shared through the database. */
const launchKeys = (config: GatewayConfig) =>
  Option.match(config.launchSigningKey, {
    onSome: LaunchKeys.layerFixed,
    onNone: () =>
      LaunchKeyStorePg.layer({
        retention: `${retiredKeyRetentionSeconds(launchPolicy(config))} seconds`,
        resumableRetention: `${resumableKeyRetentionSeconds(launchPolicy(config))} seconds`
      }).pipe(Layer.provide(LaunchKeys.generatorLayer))
  })

/**
 * The round links (CONTRACT §10): signed with the first `ROUND_LINK_KEY` when set, else with the newest key kept
 * in the database. The database's keys verify in either case: links never expire, so setting `ROUND_LINK_KEY`
 * later must not break the links already sent (they were signed with a database key).
 */
const roundLinks = (config: GatewayConfig) =>
  Option.match(config.roundLinkKeys, {
    onSome: (keys) =>
      Layer.effect(
        RoundLinks,
        Effect.map(
          RoundLinkKeysPg.storedKeys,
          (stored) => RoundLinksHmac.make({ publicBaseUrl: publicBaseUrl(config), keys: [...keys, ...stored] })
        )
      ),
    onNone: () =>
      Layer.effect(
        RoundLinks,
        Effect.map(RoundLinkKeysPg.keys, (keys) => RoundLinksHmac.make({ publicBaseUrl: publicBaseUrl(config), keys }))
      )
  })

/**
 * A warning at start when `PASSWORD_HASH_COST` is below scrypt's default: the passwords and e-mail codes hashed
 * from then on are that much cheaper to guess from a copy of the database (the project's tests run at 10).
 */
const passwordHashWarning = (cost: number) =>
  Layer.effectDiscard(
    cost < PasswordHash.defaultCost
      ? Effect.logWarning(
        `PASSWORD_HASH_COST is ${cost}, below the default ${PasswordHash.defaultCost}: passwords and e-mail codes ` +
          `hashed now take ${2 ** (PasswordHash.defaultCost - cost)} times less work to guess; set it only for tests`
      )
      : Effect.void
  )

/** The database's settings: where it is, its pools and their statement time-outs, whether it is migrated at start. */
export const databaseOptions = (config: GatewayConfig): Database.DatabaseOptions => ({
  url: config.databaseUrl,
  dataDir: config.dataDir,
  statementTimeoutMs: config.database.statementTimeoutMs,
  reports: { maxConnections: config.reports.maxConnections, statementTimeoutMs: config.reports.statementTimeoutMs },
  migrate: config.migrateOnStart
})

/**
 * The migrated database (from `DATABASE_URL`, else embedded in `DATA_DIR`)
 * with the repositories of the domain ports on it, uncached, and the
 * `node:crypto` generators of ids and credentials: what the ops CLI needs,
 * and what the background jobs read.
 */
export const repositories = (config: GatewayConfig, dataKeys: DataCipher.DataKeys) =>
  Layer.mergeAll(
    MerchantRepoPg.layer,
    ApiKeyRepoPg.layer,
    AuditLogPg.layer,
    BackofficeStorePg.layer({
      idleSeconds: config.backoffice.sessionIdleSeconds,
      maxSeconds: config.backoffice.sessionMaxSeconds
    }),
    GameCatalogPg.layer(publicBaseUrl(config)),
    GameSessionRepoPg.layer({ idleSeconds: config.gameSessionIdleSeconds }),
    RoundLedgerPg.layer,
    FreeRoundsPg.layer,
    ReportsPg.layerOnReportsPool(
      reportLimits(config),
      config.reports.exportPauseMs
    ),
    DeliveryQueuePg.layer(),
    ReadinessPg.layer,
    launchKeys(config),
    IdsNode.layer,
    MerchantCredentialsNode.layerWith({ passwordHashCost: config.passwordHashCost })
  ).pipe(
    // Credits and refunds carry their round's link; the round page and the reports read it.
    Layer.provideMerge(roundLinks(config)),
    Layer.provide(DataCipher.layerKeys(dataKeys)),
    // A round's credit goes from its commit straight to this process's worker, leased as a claim is.
    Layer.provide(OutboxHandoff.layer({ leaseMs: DeliveryWorker.defaultLeaseMs(config.webhookTimeoutMs) })),
    Layer.provideMerge(ChangeFeed.layer()),
    Layer.provideMerge(Database.layer(databaseOptions(config)))
  )

/** The merchants' signing keys, forgotten as soon as the change feed reports a merchant changed (a rotation). */
const signingKeys = Layer.effect(
  MerchantSigningKeys.MerchantSigningKeys,
  Effect.gen(function*() {
    const keys = yield* MerchantSigningKeys.make()
    yield* ChangeFeed.onChanges("merchants", (key) => keys.forget(key === undefined ? undefined : MerchantId.make(Number(key))))
    return keys
  })
)

/**
 * The whole gateway from its configuration. The HTTP side reads merchants
 * and API keys through caches the change feed keeps fresh (the games
 * catalogue is in memory for everyone); the delivery worker and the
 * background jobs read the repositories themselves. Every call to an
 * operator goes through one signed-POST path with one cache of merchant keys.
 * Releasing it first drains (`/ready` 503 for `SHUTDOWN_DRAIN_SECONDS`, see
 * `Lifecycle.running`), then stops accepting connections, lets in-flight
 * requests finish, closes the pool and stops an embedded database; the trace
 * exporter, built first, is released last, sending the spans still buffered.
 */
export const app = (
  config: GatewayConfig,
  adminTokens: AdminAuth.AdminTokenOptions,
  dataKeys: DataCipher.DataKeys
) => {
  const shared = Shared.layers(config)
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
    FairRandomNode.layer,
    OperatorUrlPolicy.layer(config.allowPrivateOperatorUrls),
    AdminAuth.layerTokens(adminTokens),
    shared.rateLimiter,
    Metrics.layerToken(config.metricsToken),
    RuntimeMetrics.layer,
    MetricsRefreshPg.layer(),
    Layer.succeed(HttpIncomingMessage.MaxBodySize, RequestLimits.maxBodySize(config.maxBodyBytes)),
    Layer.sync(PageAssets, playAssets),
    // Device cookies are signed with a key derived from DATA_ENCRYPTION_KEY (the previous keys of a rotation verify).
    BackofficeSecretsNode.layer({
      deviceCookieSecrets: [dataKeys.current, ...dataKeys.previous],
      passwordHashCost: config.passwordHashCost
    }),
    passwordHashWarning(config.passwordHashCost),
    MailerNode.layer({
      smtpUrl: config.backoffice.smtpUrl,
      from: config.backoffice.mailFrom,
      directory: join(config.dataDir, "mail")
    }),
    Backoffice.layerOptions({
      httpsBaseUrl: Option.exists(config.publicBaseUrl, (url) => url.protocol === "https:"),
      trustProxy: config.trustProxy,
      issuer: Option.match(config.publicBaseUrl, { onNone: () => "Operator Gateway", onSome: (url) => url.host })
    }),
    Layer.sync(RoundPageAssets, roundAssets),
    Layer.sync(BackofficeAssets, backofficeAssets),
    WebhookDesk.layer({ timeoutMs: config.webhookTimeoutMs, schedule: config.webhookRetrySchedule }).pipe(
      Layer.provide(signingKeys)
    )
  )
  const server = NodeHttpServer.layer(drainingServer(config), {
    port: config.port,
    host: config.host,
    gracefulShutdownTimeout: "10 seconds"
  })
  const background = Layer.mergeAll(
    DeliveryWorker.layer({ timeoutMs: config.webhookTimeoutMs, schedule: config.webhookRetrySchedule }),
    StaleDebits.layerAfterTimeout(config.webhookTimeoutMs, config.staleDebitMarginSeconds),
    SessionEnds.layer(config.gameSessionIdleSeconds),
    Housekeeping.layer
  )
  const signedPost = SignedPost.layer.pipe(
    Layer.provide([signingKeys, OperatorHttp.layer(config.allowPrivateOperatorUrls), shared.operatorCircuit])
  )
  const serving = Layer.mergeAll(HttpLive.pipe(Layer.provide(server), Layer.provide(httpPorts)), background)
  return Lifecycle.running(config).pipe(
    Layer.provide(serving),
    Layer.provide(signedPost),
    Layer.provide(repositories(config, dataKeys)),
    Layer.provide(Lifecycle.stopped),
    Layer.provide(Drain.layer),
    Layer.provide([Layer.succeed(LaunchPolicy, launchPolicy(config)), Logging.layer(config)]),
    Layer.provide(Tracing.layer(config.tracing))
  )
}

/** The gateway configured from the environment. */
export const AppLive = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* GatewayConfig
    return app(config, yield* Secrets.adminTokens(config), yield* Secrets.dataEncryptionKeys(config))
  })
)
