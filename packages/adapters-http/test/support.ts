import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { HttpServer } from "effect/http"
import { SignJWT } from "jose"
import { createServer } from "node:http"
import { type ApiKey, ApiKeySlug } from "../../domain/src/ApiKey.ts"
import { Unauthorized } from "../../domain/src/Auth.ts"
import { Game } from "../../domain/src/Game.ts"
import { MerchantId } from "../../domain/src/Merchant.ts"
import { OperatorBadResponse, OperatorTimeout } from "../../domain/src/Operator.ts"
import { type DetailsRequest, PlayerDetails, PlayerRejected } from "../../domain/src/Player.ts"
import { ApiKeyRepo } from "../../domain/src/ports/ApiKeyRepo.ts"
import { LaunchKeys } from "../src/LaunchKeys.ts"
import {
  epoch,
  gameCatalog,
  fixedCredentials,
  jsonSigner,
  makeMerchant,
  makeSettings,
  merchantRepo,
  oddEven,
  operatorDetails,
  sequentialIds
} from "../../domain/test/doubles.ts"
import * as OperatorUrlPolicy from "../../adapters-operator/src/OperatorUrlPolicy.ts"
import * as ApiKeyCache from "../src/ApiKeyCache.ts"
import * as AuthBearer from "../src/AuthBearer.ts"
import * as RateLimiter from "../src/RateLimiter.ts"
import { Readiness } from "../src/Readiness.ts"
import { HttpLive } from "../src/Server.ts"
import { makeMemoryQueue, type MemoryQueue } from "../../adapters-operator/test/MemoryDeliveryQueue.ts"
import type { Merchant } from "../../domain/src/Merchant.ts"
import { gamePorts, type LedgerLog } from "./gameDoubles.ts"

export const secret = "test-secret-that-is-at-least-32-characters-long"
export const issuer = "https://auth.example"
export const audience = "operator-gateway"

export const liveKey = `sv_live.${"A".repeat(43)}.activekey1`
export const suspendedKey = `sv_live.${"B".repeat(43)}.suspended1`

/** API keys in memory: issue and revoke work; `lookups` counts calls of `authenticate`. */
const apiKeys = (initial: ReadonlyArray<readonly [string, number]>, lookups: { value: number }) =>
  Layer.sync(ApiKeyRepo, () => {
    const keys = new Map(initial)
    let n = 0
    return ApiKeyRepo.of({
      authenticate: (key: ApiKey) => {
        lookups.value++
        const owner = keys.get(`${key.prefix}.${Redacted.value(key.secret)}.${key.slug}`)
        return owner === undefined
          ? Effect.fail(new Unauthorized({ detail: "unknown sv-api-key" }))
          : Effect.succeed(MerchantId.make(owner))
      },
      issue: (merchantId, prefix) =>
        Effect.sync(() => {
          n++
          const slug = `issued${String(n).padStart(4, "0")}`
          const secretPart = `${"k".repeat(42)}${n}`
          keys.set(`${prefix}.${secretPart}.${slug}`, merchantId)
          return {
            apiKey: { prefix, secret: Redacted.make(secretPart), slug: ApiKeySlug.make(slug) },
            createdAt: epoch
          }
        }),
      revoke: (merchantId, slug) =>
        Effect.sync(() => {
          const found = [...keys].find(([key, owner]) => owner === merchantId && key.endsWith(`.${slug}`))
          if (found !== undefined) keys.delete(found[0])
          return found !== undefined
        })
    })
  })

const details = (request: DetailsRequest) => {
  switch (request.playerId) {
    case "blocked":
      return Effect.fail(new PlayerRejected({ detail: "the operator does not know this player" }))
    case "slow":
      return Effect.fail(new OperatorTimeout({ timeoutMs: 5000 }))
    case "broken":
      return Effect.fail(new OperatorBadResponse({ detail: "the operator answered 500" }))
    case "crash":
      return Effect.die(new Error("SELECT secret FROM merchants WHERE password = 'hunter2'"))
    case "dollar":
      return Effect.succeed(new PlayerDetails({ playerId: request.playerId, currency: "USD", balance: "1.00" }))
    default:
      return Effect.succeed(new PlayerDetails({ playerId: request.playerId, currency: "ETB", balance: "100.00" }))
  }
}

export const games = [
  oddEven,
  new Game({ ...oddEven, id: "mega-ten", name: "Mega Ten", category: 2 }),
  new Game({ ...oddEven, id: "lotto", name: "Lotto", category: 3 })
]

export interface Started {
  readonly url: string
  readonly ready: { value: boolean }
  /** How often the in-memory ApiKeyRepo (below the cache) was asked to authenticate a key. */
  readonly keyLookups: { value: number }
  /** The in-memory webhook outbox behind the admin deliveries endpoints. */
  readonly deliveries: MemoryQueue
  /** What the in-memory round ledger was told. */
  readonly ledger: LedgerLog
  readonly dispose: () => Promise<void>
}

/** The protections of a test server; by default the production defaults, with private operator URLs allowed. */
export interface Protections {
  readonly rateLimit?: RateLimiter.RateLimitOptions
  readonly apiKeyCacheTtlMs?: number
  readonly allowPrivateOperatorUrls?: boolean
}

/** Game options of a test server: merchants beyond the usual three, and the engine's fixed draw (default 17, odd). */
export interface GameOptions {
  readonly merchants?: ReadonlyArray<Merchant>
  readonly draw?: number
}

/** Serves the real HttpApi on 127.0.0.1 (random port) over in-memory ports. */
export const start = async (
  auth: AuthBearer.BearerOptions = { secret: Redacted.make(secret) },
  protections: Protections = {},
  game: GameOptions = {}
): Promise<Started> => {
  const ready = { value: true }
  const keyLookups = { value: 0 }
  const deliveries = await Effect.runPromise(makeMemoryQueue)
  const log: LedgerLog = { begun: [], settled: [], refused: [], failed: [] }
  const ports = Layer.mergeAll(
    merchantRepo([
      makeMerchant({ MerchantSettings: makeSettings({ userDetailsUrl: "https://ops.example/details" }) }),
      makeMerchant({ id: MerchantId.make(8), email: "second@example.com", accountStatus: "suspended" }),
      makeMerchant({ id: MerchantId.make(9), email: "nodetails@example.com" }),
      ...(game.merchants ?? [])
    ]),
    ApiKeyCache.layer({ ttlMs: protections.apiKeyCacheTtlMs ?? 5000 }).pipe(
      Layer.provide(apiKeys([[liveKey, 7], [suspendedKey, 8], [`sv_test.${"C".repeat(43)}.nodetails1`, 9]], keyLookups))
    ),
    RateLimiter.layer(protections.rateLimit ?? { rps: 100, burst: 200 }),
    OperatorUrlPolicy.layer(protections.allowPrivateOperatorUrls ?? true),
    gameCatalog(games),
    operatorDetails([], details),
    jsonSigner,
    sequentialIds,
    fixedCredentials,
    Layer.succeed(Readiness, Readiness.of({ check: Effect.sync(() => ready.value) })),
    AuthBearer.layer(auth),
    Layer.succeed(LaunchKeys, LaunchKeys.of({ publicKeys: Effect.succeed([]), rotate: Effect.die("not used") })),
    gamePorts({ log, deliveries, draw: game.draw ?? 17 })
  )
  const app = HttpLive.pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(ports)
  )
  const runtime = ManagedRuntime.make(app)
  const server = await runtime.runPromise(Effect.gen(function*() {
    return yield* HttpServer.HttpServer
  }))
  const address = server.address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  return {
    url: `http://127.0.0.1:${address.port}`,
    ready,
    keyLookups,
    deliveries,
    ledger: log,
    dispose: () => runtime.dispose()
  }
}

/** A bearer token signed with the test secret. */
export const token = (options: {
  readonly scope?: string
  readonly expiresIn?: string | number
  readonly key?: string
  readonly issuer?: string
  readonly audience?: string
  readonly exp?: boolean
} = {}) => {
  const jwt = new SignJWT({ scope: options.scope ?? "read:users write:users" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("admin-1")
    .setIssuedAt()
  if (options.exp !== false) jwt.setExpirationTime(options.expiresIn ?? "5m")
  if (options.issuer !== undefined) jwt.setIssuer(options.issuer)
  if (options.audience !== undefined) jwt.setAudience(options.audience)
  return jwt.sign(new TextEncoder().encode(options.key ?? secret))
}

/** An unsigned token (`alg: none`) with every claim an admin token would have. */
export const unsignedToken = () => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url")
  const now = Math.floor(Date.now() / 1000)
  return `${part({ alg: "none", typ: "JWT" })}.${part({ sub: "admin-1", scope: "read:users write:users", iat: now, exp: now + 300 })}.`
}
