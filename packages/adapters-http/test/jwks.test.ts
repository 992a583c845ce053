import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { HttpServer } from "effect/http"
import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose"
import { randomBytes } from "node:crypto"
import { createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LaunchKeyStore } from "../../adapters-operator/src/LaunchKeyStore.ts"
import * as LaunchSigner from "../../adapters-operator/src/LaunchSigner.ts"
import * as OperatorUrlPolicy from "../../adapters-operator/src/OperatorUrlPolicy.ts"
import * as DataCipher from "../../adapters-pg/src/DataCipher.ts"
import * as LaunchKeyStorePg from "../../adapters-pg/src/LaunchKeyStorePg.ts"
import * as PgTest from "../../adapters-pg/src/PgTest.ts"
import { LaunchPolicy } from "../../domain/src/LaunchPolicy.ts"
import { PlayerDetails } from "../../domain/src/Player.ts"
import { LaunchTokenSigner } from "../../domain/src/ports/LaunchTokenSigner.ts"
import {
  apiKeyRepo,
  fixedCredentials,
  gameCatalog,
  makeMerchant,
  makeSettings,
  merchantRepo,
  oddEven,
  operatorDetails,
  sequentialIds
} from "../../domain/test/doubles.ts"
import { makeMemoryQueue } from "../../adapters-operator/test/MemoryDeliveryQueue.ts"
import * as AuthBearer from "../src/AuthBearer.ts"
import { gamePorts } from "./gameDoubles.ts"
import { LaunchKeys } from "../src/LaunchKeys.ts"
import * as RateLimiter from "../src/RateLimiter.ts"
import { Readiness } from "../src/Readiness.ts"
import { HttpLive } from "../src/Server.ts"
import { liveKey, secret, token } from "./support.ts"

const issuer = "https://gateway.example"

/** The launch keys of the app: the PostgreSQL store, seen by the signer and by the JWKS route. */
const keys = LaunchKeyStorePg.layer({ retention: "2 minutes" }).pipe(
  Layer.provide(DataCipher.layer(Redacted.make(randomBytes(32)))),
  Layer.provide(PgTest.layer)
)

const LaunchKeysLive = Layer.effect(
  LaunchKeys,
  Effect.gen(function*() {
    const store = yield* LaunchKeyStore
    return LaunchKeys.of({ publicKeys: store.publicKeys, rotate: store.rotate })
  })
)

/** The real signer, re-reading the current key on every launch so a rotation shows at once. */
const SignerLive = Layer.effect(LaunchTokenSigner, LaunchSigner.make({ cacheTtl: 0 }))

let url: string
let dispose: () => Promise<void>

beforeAll(async () => {
  const ports = Layer.mergeAll(
    merchantRepo([makeMerchant({ MerchantSettings: makeSettings({ userDetailsUrl: "https://ops.example/details" }) })]),
    apiKeyRepo(new Map([[liveKey, 7]])),
    gameCatalog([oddEven]),
    operatorDetails([], (request) =>
      Effect.succeed(new PlayerDetails({ playerId: request.playerId, currency: "ETB", balance: "10.00" }))),
    sequentialIds,
    fixedCredentials,
    Readiness.always,
    AuthBearer.layer({ secret: Redacted.make(secret) }),
    RateLimiter.layer({ rps: 0, burst: 0 }),
    OperatorUrlPolicy.layer(true),
    Layer.merge(SignerLive, LaunchKeysLive).pipe(Layer.provideMerge(keys)),
    Layer.succeed(LaunchPolicy, { issuer, ttlSeconds: 60 }),
    gamePorts({
      log: { begun: [], settled: [], refused: [], failed: [] },
      deliveries: await Effect.runPromise(makeMemoryQueue),
      draw: 17
    })
  )
  const app = HttpLive.pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(ports)
  )
  const runtime = ManagedRuntime.make(app)
  const server = await runtime.runPromise(Effect.gen(function*() {
    return yield* HttpServer.HttpServer
  }))
  if (server.address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  url = `http://127.0.0.1:${server.address.port}`
  dispose = () => runtime.dispose()
})
afterAll(() => dispose())

const jwksUrl = () => new URL(`${url}/.well-known/jwks.json`)

const json = async (response: Response) => JSON.parse(await response.text())

const launch = async () => {
  const query = "gameId=odd-even&playerId=player-42&sessionId=session-9&disableGameLobby=true"
  const response = await fetch(`${url}/api/v1.1/operator-api/games/generate-launch-url?${query}`, {
    headers: { "sv-api-key": liveKey }
  })
  expect(response.status).toBe(200)
  const body = await json(response)
  const launchToken = new URL(body.url).searchParams.get("token")
  expect(launchToken).not.toBeNull()
  return launchToken ?? ""
}

const jwks = async () => {
  const response = await fetch(jwksUrl())
  expect(response.status).toBe(200)
  expect(response.headers.get("cache-control")).toBe("public, max-age=60")
  const body = await json(response)
  expect(Object.keys(body)).toEqual(["keys"])
  const keys: Array<Record<string, string>> = body.keys
  return keys
}

const rotate = (scope?: string) =>
  token(scope === undefined ? {} : { scope }).then((bearer) =>
    fetch(`${url}/api/v1.1/operator-api/launch-keys/rotate`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}` }
    })
  )

describe("GET /.well-known/jwks.json", () => {
  it("publishes the key that signs launch tokens, and a launch token carries every claim of the contract", async () => {
    const launchToken = await launch()
    const published = await jwks()
    expect(published).toHaveLength(1)
    expect(published[0]).toEqual({
      kty: "OKP",
      crv: "Ed25519",
      alg: "EdDSA",
      use: "sig",
      kid: decodeProtectedHeader(launchToken).kid,
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/)
    })
    const { payload, protectedHeader } = await jwtVerify(launchToken, createRemoteJWKSet(jwksUrl()), {
      algorithms: ["EdDSA"],
      issuer,
      audience: "launch"
    })
    expect(protectedHeader.alg).toBe("EdDSA")
    expect(Object.keys(payload).toSorted()).toEqual(
      ["aud", "cur", "exp", "gid", "iat", "iss", "jti", "lobby", "mid", "mode", "sid", "sub"]
    )
    expect(payload).toMatchObject({
      iss: issuer,
      aud: "launch",
      sub: "player-42",
      mid: 7,
      gid: "odd-even",
      sid: "session-9",
      mode: "real",
      cur: "ETB",
      lobby: false
    })
    expect(payload.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60)
  })

  it("needs no authentication and is described in OpenAPI", async () => {
    const response = await fetch(jwksUrl(), { headers: { authorization: "Bearer nonsense" } })
    expect(response.status).toBe(200)
    const openapi = await json(await fetch(`${url}/openapi.json`))
    expect(openapi.paths["/.well-known/jwks.json"].get.responses["200"]).toBeDefined()
    expect(openapi.paths["/api/v1.1/operator-api/launch-keys/rotate"].post).toBeDefined()
  })
})

describe("POST /api/v1.1/operator-api/launch-keys/rotate", () => {
  it("refuses without a token (401) and without write:users (403)", async () => {
    const anonymous = await fetch(`${url}/api/v1.1/operator-api/launch-keys/rotate`, { method: "POST" })
    expect(anonymous.status).toBe(401)
    expect((await rotate("read:users")).status).toBe(403)
  })

  it("makes a new key current; tokens of the old key still verify against the JWKS", async () => {
    const before = await launch()
    const response = await rotate()
    expect(response.status).toBe(200)
    const { kid } = await json(response)
    expect(kid).not.toBe(decodeProtectedHeader(before).kid)
    const after = await launch()
    expect(decodeProtectedHeader(after).kid).toBe(kid)
    const published = await jwks()
    expect(published.map((k) => k.kid)).toContain(kid)
    expect(published.map((k) => k.kid)).toContain(decodeProtectedHeader(before).kid)
    const set = createLocalJWKSet({ keys: published })
    for (const launchToken of [before, after]) {
      await expect(jwtVerify(launchToken, set, { algorithms: ["EdDSA"], issuer, audience: "launch" })).resolves
        .toBeDefined()
    }
  })
})
