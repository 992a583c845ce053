import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { HttpServer } from "effect/http"
import { createServer } from "node:http"
import { OperatorUrlPolicy } from "@gateway/adapters-operator"
import { ApiKeyRepo, type Backoffice as Backoffice_, DeliveryQueue, Game, Merchant, Operator, Player } from "@gateway/domain"
import {
  auditLog,
  fixedCredentials,
  fixedDraw,
  fixedLaunchKeys,
  gameCatalog,
  jsonSigner,
  jsonVerifier,
  emptyReports,
  freeRounds,
  ledger,
  type LedgerLog,
  makeApiKeyRepo,
  makeBackoffice,
  webhookDesk,
  makeMemoryQueue,
  makeMerchant,
  makeSettings,
  merchantRepo,
  type MemoryQueue,
  oddEven,
  operatorDetails,
  readiness,
  roundLinks,
  sequentialIds,
  sessionRepo,
  wallet
} from "@gateway/domain/testing"
import { GamePagesOptions } from "../src/cache/GamePages.ts"
import { PageAssets } from "../src/page/PlayPage.ts"
import { playAssets } from "@gateway/play/assets"
import type { ResponseCacheOptions } from "../src/cache/ResponseCache.ts"
import * as AdminAuth from "../src/middleware/AdminAuth.ts"
import * as Backoffice from "../src/handlers/Backoffice.ts"
import * as RateLimiter from "../src/middleware/RateLimiter.ts"
import { HttpLive } from "../src/Routes.ts"

export const secret = "test-secret-that-is-at-least-32-characters-long"
export const issuer = "https://auth.example"
export const audience = "operator-gateway"

export const liveKey = `sv_live.${"A".repeat(43)}.activekey1`
export const suspendedKey = `sv_live.${"B".repeat(43)}.suspended1`
export const noDetailsKey = `sv_live.${"C".repeat(43)}.nodetails1`
/** A test key of merchant 7 (the one with a Details URL): demo launches only. */
export const testKey = `sv_test.${"D".repeat(43)}.testkey001`

const details = (request: Player.DetailsRequest) => {
  switch (request.playerId) {
    case "blocked":
      return Effect.fail(new Player.PlayerRejected({ detail: "the operator does not know this player" }))
    case "slow":
      return Effect.fail(new Operator.OperatorTimeout({ timeoutMs: 5000 }))
    case "broken":
      return Effect.fail(new Operator.OperatorBadResponse({ detail: "the operator answered 500" }))
    case "crash":
      return Effect.die(new Error("SELECT secret FROM merchants WHERE password = 'hunter2'"))
    case "dollar":
      return Effect.succeed(new Player.PlayerDetails({ playerId: request.playerId, currency: "USD", balance: "1.00" }))
    default:
      return Effect.succeed(new Player.PlayerDetails({ playerId: request.playerId, currency: "ETB", balance: "100.00" }))
  }
}

export const games = [
  oddEven,
  new Game.Game({ ...oddEven, id: "mega-ten", name: "Mega Ten", category: 2 }),
  new Game.Game({ ...oddEven, id: "lotto", name: "Lotto", category: 3 })
]

export interface Started extends Served {
  readonly ready: { value: boolean }
  /** How often the in-memory ApiKeyRepo was asked to authenticate a key. */
  readonly keyLookups: () => number
  /** The in-memory webhook outbox behind the admin deliveries endpoints. */
  readonly deliveries: MemoryQueue
  /** What the in-memory round ledger was told. */
  readonly ledger: LedgerLog
}

/** The protections of a test server; by default the production defaults, with private operator URLs allowed. */
export interface Protections {
  readonly rateLimit?: RateLimiter.RateLimitOptions
  readonly allowPrivateOperatorUrls?: boolean
  /** The back office's users (in memory) and how it decides that its cookie is `Secure`. */
  readonly backoffice?: {
    readonly users: ReadonlyArray<Backoffice_.UserWithSecrets>
    readonly httpsBaseUrl: boolean
    readonly trustProxy: boolean
  }
}

/** Game options of a test server: merchants beyond the usual three, and the engine's fixed draw (default 17, odd). */
export interface GameOptions {
  readonly merchants?: ReadonlyArray<Merchant.Merchant>
  readonly draw?: number
  /** How many games pages are kept encoded (default: the production default). */
  readonly pages?: ResponseCacheOptions
}

const app = HttpLive.pipe(Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })))

/** Every service the HTTP app needs besides its server: the domain ports, `AdminTokens` and `RateLimiter`. */
export type AppServices = Layer.Services<typeof app>

/** A running test server. */
export interface Served {
  readonly url: string
  readonly dispose: () => Promise<void>
}

/** Serves the real HttpApi on 127.0.0.1 (random port) over `ports`. */
/** The back office's ports in memory (no users by default), and its options (plain http by default). */
export const backofficePorts = (options: Protections["backoffice"] = { users: [], httpsBaseUrl: false, trustProxy: false }) =>
  Layer.mergeAll(
    makeBackoffice(options.users).layer,
    Backoffice.layerOptions({ httpsBaseUrl: options.httpsBaseUrl, trustProxy: options.trustProxy, issuer: "test" }),
    webhookDesk
  )

export const serve = async <E>(ports: Layer.Layer<AppServices, E>): Promise<Served> => {
  const runtime = ManagedRuntime.make(Layer.provide(app, Layer.merge(ports, Layer.sync(PageAssets, playAssets))))
  const server = await runtime.runPromise(Effect.gen(function*() {
    return yield* HttpServer.HttpServer
  }))
  const address = server.address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, dispose: () => runtime.dispose() }
}

/**
 * {@link serve} over the in-memory
 * ports of `@gateway/domain/testing`: merchants 7 (active, with a Details
 * URL), 8 (suspended) and 9 (no Details URL), each with one API key.
 */
export const start = async (
  auth: AdminAuth.AdminTokenOptions = { secret: Redacted.make(secret) },
  protections: Protections = {},
  game: GameOptions = {}
): Promise<Started> => {
  const ready = { value: true }
  const deliveries = await Effect.runPromise(makeMemoryQueue)
  const log: LedgerLog = { begun: [], settled: [], refused: [], failed: [] }
  const apiKeys = makeApiKeyRepo([[liveKey, 7], [suspendedKey, 8], [noDetailsKey, 9], [testKey, 7]])
  const ports = Layer.mergeAll(
    merchantRepo([
      makeMerchant({ MerchantSettings: makeSettings({ userDetailsUrl: "https://ops.example/details" }) }),
      makeMerchant({ id: Merchant.MerchantId.make(8), email: "second@example.com", accountStatus: "suspended" }),
      makeMerchant({ id: Merchant.MerchantId.make(9), email: "nodetails@example.com" }),
      ...(game.merchants ?? [])
    ]),
    Layer.succeed(ApiKeyRepo, apiKeys.service),
    RateLimiter.layer(protections.rateLimit ?? { rps: 100, burst: 200 }),
    OperatorUrlPolicy.layer(protections.allowPrivateOperatorUrls ?? true),
    gameCatalog(games),
    operatorDetails([], details),
    jsonSigner,
    jsonVerifier,
    sequentialIds,
    fixedCredentials,
    auditLog,
    readiness(ready),
    AdminAuth.layerTokens(auth),
    fixedLaunchKeys(),
        Layer.mergeAll(ledger(log), freeRounds).pipe(Layer.provideMerge(sessionRepo)),
    wallet,
    emptyReports,
    roundLinks(),
    fixedDraw(game.draw ?? 17),
    Layer.succeed(DeliveryQueue, deliveries.service),
    backofficePorts(protections.backoffice),
    game.pages === undefined ? Layer.empty : Layer.succeed(GamePagesOptions, game.pages)
  )
  const served = await serve(ports)
  return { ...served, ready, keyLookups: apiKeys.lookups, deliveries, ledger: log }
}

/** A bearer token signed with the test secret (or `key`), minted by the one minting path, `AdminAuth.mint`. */
export const token = (options: {
  readonly scope?: string
  readonly expiresIn?: string | number
  readonly key?: string
  readonly issuer?: string
  readonly audience?: string
  readonly exp?: boolean
} = {}): Promise<string> =>
  Effect.runPromise(AdminAuth.mint({
    secret: Redacted.make(options.key ?? secret),
    scopes: (options.scope ?? "read:users write:users").split(" ").filter((s) => s !== ""),
    subject: "admin-1",
    expiresIn: options.exp === false ? false : options.expiresIn ?? "5m",
    issuer: options.issuer,
    audience: options.audience
  }))

/** An unsigned token (`alg: none`) with every claim an admin token would have. */
export const unsignedToken = () => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url")
  const now = Math.floor(Date.now() / 1000)
  return `${part({ alg: "none", typ: "JWT" })}.${part({ sub: "admin-1", scope: "read:users write:users", iat: now, exp: now + 300 })}.`
}
