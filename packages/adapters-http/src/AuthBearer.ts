import { Config, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from "jose"
import { Auth } from "@gateway/domain"
import { AdminAuth, type AdminClaims, CurrentAdmin } from "./api/Security.ts"
import * as Problem from "./Problem.ts"

/** How admin bearer tokens are verified. Without a secret or JWKS URL, every token is refused. */
export interface BearerOptions {
  readonly secret?: Redacted.Redacted<string> | undefined
  readonly jwksUrl?: URL | string | undefined
  readonly issuer?: string | undefined
  readonly audience?: string | undefined
}

/** Verifies admin bearer tokens (CONTRACT §2). */
export class BearerAuth extends Context.Service<BearerAuth, {
  verify(token: string): Effect.Effect<AdminClaims, Auth.Unauthorized>
}>()("@gateway/adapters-http/AuthBearer/BearerAuth") {}

const hmacAlgorithms = ["HS256"]
const jwksAlgorithms = ["RS256", "ES256", "EdDSA"]

type Key = { readonly _tag: "Secret"; readonly key: Uint8Array } | { readonly _tag: "Jwks"; readonly key: JWTVerifyGetKey }

const refused = (error: unknown) =>
  new Auth.Unauthorized({
    detail: typeof error === "object" && error !== null && "code" in error && error.code === "ERR_JWT_EXPIRED"
      ? "bearer token expired"
      : "invalid bearer token"
  })

/** A verifier; JWKS takes precedence over the shared secret when both are set. */
export const make = (options: BearerOptions): BearerAuth["Service"] => {
  const key: Key | undefined = options.jwksUrl !== undefined
    ? { _tag: "Jwks", key: createRemoteJWKSet(new URL(options.jwksUrl)) }
    : options.secret !== undefined
    ? { _tag: "Secret", key: new TextEncoder().encode(Redacted.value(options.secret)) }
    : undefined
  const verifyOptions = {
    requiredClaims: ["exp"],
    ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
    ...(options.audience === undefined ? {} : { audience: options.audience })
  }
  const verify = (token: string) =>
    key === undefined
      ? Promise.reject(new Error("bearer authentication is not configured"))
      : key._tag === "Secret"
      ? jwtVerify(token, key.key, { ...verifyOptions, algorithms: hmacAlgorithms })
      : jwtVerify(token, key.key, { ...verifyOptions, algorithms: jwksAlgorithms })
  return BearerAuth.of({
    verify: (token) =>
      Effect.tryPromise({ try: () => verify(token), catch: refused }).pipe(
        Effect.map(({ payload }) => ({
          subject: payload.sub,
          scopes: new Set(typeof payload.scope === "string" ? payload.scope.split(" ").filter((s) => s !== "") : [])
        }))
      )
  })
}

/** A verifier from explicit options (tests, or apps that read their own config). */
export const layer = (options: BearerOptions): Layer.Layer<BearerAuth> => Layer.succeed(BearerAuth, make(options))

/** `AUTH_JWT_SECRET` (at least 32 characters), `AUTH_JWKS_URL`, `AUTH_ISSUER`, `AUTH_AUDIENCE`, all optional. */
export const config = Config.all({
  secret: Config.option(
    Config.schema(
      Schema.Redacted(Schema.String.check(Schema.isMinLength(32, { message: "must be at least 32 characters" }))),
      "AUTH_JWT_SECRET"
    )
  ),
  jwksUrl: Config.option(Config.URL("AUTH_JWKS_URL")),
  issuer: Config.option(Config.NonEmptyString("AUTH_ISSUER")),
  audience: Config.option(Config.NonEmptyString("AUTH_AUDIENCE"))
})

/** The verifier configured from the environment; warns once when neither a secret nor a JWKS URL is set. */
export const layerConfig: Layer.Layer<BearerAuth, Config.ConfigError> = Layer.effect(
  BearerAuth,
  Effect.gen(function*() {
    const c = yield* config
    if (Option.isNone(c.secret) && Option.isNone(c.jwksUrl)) {
      yield* Effect.logWarning("neither AUTH_JWT_SECRET nor AUTH_JWKS_URL is set: every bearer token is refused")
    }
    return make({
      secret: Option.getOrUndefined(c.secret),
      jwksUrl: Option.getOrUndefined(c.jwksUrl),
      issuer: Option.getOrUndefined(c.issuer),
      audience: Option.getOrUndefined(c.audience)
    })
  })
)

const bearerPrefix = /^bearer +/i

/** The token of a request: `Authorization: Bearer <jwt>`, else the `access-token` header. */
const tokenOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const authorization = request.headers["authorization"]
  if (authorization !== undefined && bearerPrefix.test(authorization)) {
    return authorization.replace(bearerPrefix, "").trim() || undefined
  }
  return request.headers["access-token"]?.trim() || undefined
}

const readMethods = new Set(["GET", "HEAD"])

/** `read:users` for reads, `write:users` for every other method. */
export const requiredScope = (method: string): Auth.Scope => readMethods.has(method) ? "read:users" : "write:users"

const authenticate = <A, E, R>(httpEffect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = tokenOf(request)
    if (token === undefined) {
      return yield* Problem.make("UNAUTHORIZED", "missing bearer token (Authorization: Bearer <jwt> or access-token)")
    }
    const claims = yield* (yield* BearerAuth).verify(token).pipe(Effect.mapError(Problem.fromDomain))
    const scope = requiredScope(request.method)
    if (!claims.scopes.has(scope)) {
      return yield* Problem.make("FORBIDDEN", `the bearer token lacks the scope ${scope}`)
    }
    return yield* Effect.provideService(httpEffect, CurrentAdmin, claims)
  })

/** The AdminAuth middleware: both schemes read the same token, so the answer does not depend on which ran. */
export const AdminAuthLive: Layer.Layer<AdminAuth, never, BearerAuth> = Layer.effect(
  AdminAuth,
  Effect.gen(function*() {
    const bearerAuth = yield* BearerAuth
    const run = <A, E, R>(httpEffect: Effect.Effect<A, E, R>) =>
      authenticate(httpEffect).pipe(Effect.provideService(BearerAuth, bearerAuth))
    return AdminAuth.of({ bearer: run, accessToken: run })
  })
)
