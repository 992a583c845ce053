import { Effect, Layer, Redacted } from "effect"
import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "@gateway/adapters-http/testing"
import { LaunchKeys, LaunchTokenSignerJwt, OperatorUrlPolicy } from "@gateway/adapters-operator"
import { DataCipher, LaunchKeyStorePg } from "@gateway/adapters-pg"
import * as PgTest from "@gateway/adapters-pg/testing"
import { DeliveryQueue, LaunchPolicy, LaunchTokenSigner, Player } from "@gateway/domain"
import {
  apiKeyRepo,
  auditLog,
  fixedCredentials,
  fixedDraw,
  gameCatalog,
  jsonVerifier,
  emptyReports,
  freeRounds,
  ledger,
  makeMemoryQueue,
  makeMerchant,
  makeSettings,
  merchantRepo,
  oddEven,
  operatorDetails,
  readiness,
  roundLinks,
  sequentialIds,
  sessionRepo,
  wallet
} from "@gateway/domain/testing"
import * as AdminAuth from "../src/middleware/AdminAuth.ts"
import * as RateLimiter from "../src/middleware/RateLimiter.ts"
import { backofficePorts, liveKey, secret, serve, type Served, token } from "./support.ts"

const issuer = "https://gateway.example"

/** The launch keys of the app: the PostgreSQL store (its first key made when built), seen by the signer and by the JWKS route. */
const keys = LaunchKeyStorePg.layer({ retention: "2 minutes" }).pipe(
  Layer.provide(DataCipher.layer(Redacted.make(randomBytes(32)))),
  Layer.provide(LaunchKeys.generatorLayer),
  Layer.provide(PgTest.layer)
)

/** The real signer, re-reading the current key on every launch so a rotation shows at once. */
const SignerLive = Layer.effect(LaunchTokenSigner, LaunchTokenSignerJwt.make({ cacheTtl: 0 }))

let url: string
let dispose: Served["dispose"]

beforeAll(async () => {
  const deliveries = await Effect.runPromise(makeMemoryQueue)
  const ports = Layer.mergeAll(
    merchantRepo([makeMerchant({ MerchantSettings: makeSettings({ userDetailsUrl: "https://ops.example/details" }) })]),
    apiKeyRepo([[liveKey, 7]]),
    gameCatalog([oddEven]),
    operatorDetails([], (request) =>
      Effect.succeed(new Player.PlayerDetails({ playerId: request.playerId, currency: "ETB", balance: "10.00" }))),
    sequentialIds,
    fixedCredentials,
    auditLog,
    readiness(),
    AdminAuth.layerTokens({ secret: Redacted.make(secret) }),
    RateLimiter.layer({ rps: 0, burst: 0 }),
    OperatorUrlPolicy.layer(true),
    SignerLive.pipe(Layer.provideMerge(keys)),
    Layer.succeed(LaunchPolicy.LaunchPolicy, { issuer, ttlSeconds: 60 }),
    jsonVerifier,
        Layer.mergeAll(ledger({ begun: [], settled: [], refused: [], failed: [] }), freeRounds).pipe(Layer.provideMerge(sessionRepo)),
    wallet,
    emptyReports,
    roundLinks(),
    fixedDraw(17),
    Layer.succeed(DeliveryQueue, deliveries.service),
    backofficePorts()
  )
  const served = await serve(ports)
  url = served.url
  dispose = served.dispose
})
afterAll(() => dispose())

const jwksUrl = () => new URL(`${url}/.well-known/jwks.json`)

const launch = async () => {
  const query = "gameId=odd-even&playerId=player-42&sessionId=session-9&disableGameLobby=true"
  const { status, body } = await call(`${url}/api/v1.1/operator-api/games/generate-launch-url?${query}`, {
    headers: { "sv-api-key": liveKey }
  })
  expect(status).toBe(200)
  const launchToken = new URL(body.url).searchParams.get("token")
  expect(launchToken).not.toBeNull()
  return launchToken ?? ""
}

const jwks = async () => {
  const { status, headers, body } = await call(jwksUrl().href)
  expect(status).toBe(200)
  expect(headers.get("cache-control")).toBe("public, max-age=60")
  expect(Object.keys(body)).toEqual(["keys"])
  const keys: Array<Record<string, string>> = body.keys
  return keys
}

const rotate = (scope?: string) =>
  token(scope === undefined ? {} : { scope }).then((bearer) =>
    call(`${url}/api/v1.1/operator-api/launch-keys/rotate`, {
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
    expect((await call(jwksUrl().href, { headers: { authorization: "Bearer nonsense" } })).status).toBe(200)
    const openapi = (await call(`${url}/openapi.json`)).body
    expect(openapi.paths["/.well-known/jwks.json"].get.responses["200"]).toBeDefined()
    expect(openapi.paths["/api/v1.1/operator-api/launch-keys/rotate"].post).toBeDefined()
  })
})

describe("POST /api/v1.1/operator-api/launch-keys/rotate", () => {
  it("refuses without a token (401) and without write:users (403)", async () => {
    const anonymous = await call(`${url}/api/v1.1/operator-api/launch-keys/rotate`, { method: "POST" })
    expect(anonymous.status).toBe(401)
    expect((await rotate("read:users")).status).toBe(403)
  })

  it("makes a new key current; tokens of the old key still verify against the JWKS", async () => {
    const before = await launch()
    const rotated = await rotate()
    expect(rotated.status).toBe(200)
    const kid = rotated.body.kid
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
