import { Context, Effect, Layer, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey, type JWTVerifyResult, jwtVerify, SignJWT } from "jose"
import { Auth } from "@gateway/domain"
import { AdminAuth, type AdminClaims, CurrentAdmin } from "@gateway/client/api/Security"
import * as Problem from "@gateway/client/api/Problem"
import { guardFailures, RateLimiter } from "./RateLimiter.ts"

/** How admin bearer tokens are verified. Without a secret or JWKS URL, every token is refused. */
export interface AdminTokenOptions {
  /** The HS256 secret new tokens are signed with (`AUTH_JWT_SECRET`'s first); accepted. */
  readonly secret?: Redacted.Redacted<string> | undefined
  /** Secrets being rotated out (`AUTH_JWT_SECRET`'s others): tokens they signed are still accepted. */
  readonly previousSecrets?: ReadonlyArray<Redacted.Redacted<string>> | undefined
  readonly jwksUrl?: URL | string | undefined
  readonly issuer?: string | undefined
  readonly audience?: string | undefined
  /** The longest a token may live: `exp` at most this after `iat` and after now (default 86 400 s, 24 h). */
  readonly maxLifetimeSeconds?: number | undefined
}

/** How long an admin token may live when {@link AdminTokenOptions.maxLifetimeSeconds} is not given. */
export const defaultMaxLifetimeSeconds = 86_400
/** Clock skew allowed between the token's issuer and this server. */
const SKEW_SECONDS = 60

/** Verifies admin bearer tokens (CONTRACT §2). */
export class AdminTokens extends Context.Service<AdminTokens, {
  verify(token: string): Effect.Effect<AdminClaims, Auth.Unauthorized>
}>()("@gateway/adapters-http/middleware/AdminAuth/AdminTokens") {}

const hmacAlgorithms = ["HS256"]
const jwksAlgorithms = ["RS256", "ES256", "EdDSA"]

type Key =
  | { readonly _tag: "Secret"; readonly keys: ReadonlyArray<Uint8Array> }
  | { readonly _tag: "Jwks"; readonly key: JWTVerifyGetKey }

const isBadSignature = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error && error.code === "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"

const refused = (error: unknown) =>
  new Auth.Unauthorized({
    detail: typeof error === "object" && error !== null && "code" in error && error.code === "ERR_JWT_EXPIRED"
      ? "bearer token expired"
      : "invalid bearer token"
  })

/** A verifier; JWKS takes precedence over the shared secret when both are set. */
export const makeTokens = (options: AdminTokenOptions): AdminTokens["Service"] => {
  const key: Key | undefined = options.jwksUrl !== undefined
    ? { _tag: "Jwks", key: createRemoteJWKSet(new URL(options.jwksUrl)) }
    : options.secret !== undefined
    ? {
      _tag: "Secret",
      keys: [options.secret, ...(options.previousSecrets ?? [])].map((secret) =>
        new TextEncoder().encode(Redacted.value(secret))
      )
    }
    : undefined
  const verifyOptions = {
    requiredClaims: ["exp"],
    ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
    ...(options.audience === undefined ? {} : { audience: options.audience })
  }
  /** Under each secret in turn while the signature is what fails: a token of any listed secret passes. */
  const verifySecrets = async (token: string, keys: ReadonlyArray<Uint8Array>, index = 0): Promise<JWTVerifyResult> => {
    try {
      return await jwtVerify(token, keys[index] ?? new Uint8Array(), { ...verifyOptions, algorithms: hmacAlgorithms })
    } catch (error) {
      if (index + 1 < keys.length && isBadSignature(error)) return verifySecrets(token, keys, index + 1)
      throw error
    }
  }
  const verify = (token: string) =>
    key === undefined
      ? Promise.reject(new Error("bearer authentication is not configured"))
      : key._tag === "Secret"
      ? verifySecrets(token, key.keys)
      : jwtVerify(token, key.key, { ...verifyOptions, algorithms: jwksAlgorithms })
  const maxLifetime = options.maxLifetimeSeconds ?? defaultMaxLifetimeSeconds
  /** Why a verified token's times are refused, if they are: a lifetime beyond the bound, or issued in the future. */
  const badTimes = (payload: JWTPayload): string | undefined => {
    const now = Math.floor(Date.now() / 1000)
    const { exp = 0, iat } = payload
    if (iat !== undefined && iat > now + SKEW_SECONDS) return "bearer token issued in the future"
    if (exp - now > maxLifetime + SKEW_SECONDS || (iat !== undefined && exp - iat > maxLifetime)) {
      return `bearer token lifetime exceeds ${maxLifetime} s`
    }
    return undefined
  }
  return AdminTokens.of({
    verify: (token) =>
      Effect.tryPromise({ try: () => verify(token), catch: refused }).pipe(
        Effect.flatMap(({ payload }) => {
          const bad = badTimes(payload)
          return bad === undefined ? Effect.succeed(payload) : Effect.fail(new Auth.Unauthorized({ detail: bad }))
        }),
        Effect.map((payload) => ({
          subject: payload.sub,
          scopes: new Set(typeof payload.scope === "string" ? payload.scope.split(" ").filter((s) => s !== "") : [])
        }))
      )
  })
}

/** The verifier of {@link makeTokens}; warns once when neither a secret nor a JWKS URL is set. */
export const layerTokens = (options: AdminTokenOptions): Layer.Layer<AdminTokens> =>
  Layer.effect(
    AdminTokens,
    Effect.as(
      options.secret === undefined && options.jwksUrl === undefined
        ? Effect.logWarning("neither AUTH_JWT_SECRET nor AUTH_JWKS_URL is set: every bearer token is refused")
        : Effect.void,
      makeTokens(options)
    )
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
    const claims = yield* (yield* AdminTokens).verify(token).pipe(Effect.mapError(Problem.fromDomain))
    const scope = requiredScope(request.method)
    if (!claims.scopes.has(scope)) {
      return yield* Problem.make("FORBIDDEN", `the bearer token lacks the scope ${scope}`)
    }
    return yield* Effect.provideService(httpEffect, CurrentAdmin, claims)
  })

/**
 * The AdminAuth middleware: both schemes read the same token, so the answer
 * does not depend on which ran. A refused token (401) is charged to the
 * client's address and answered 429 once the address has spent its failed
 * attempts; a valid token is never refused for them.
 */
export const layer: Layer.Layer<AdminAuth, never, AdminTokens | RateLimiter> = Layer.effect(
  AdminAuth,
  Effect.gen(function*() {
    const tokens = yield* AdminTokens
    const guarded = guardFailures(yield* RateLimiter)
    const run = <A, E, R>(httpEffect: Effect.Effect<A, E, R>) =>
      guarded(authenticate(httpEffect)).pipe(Effect.provideService(AdminTokens, tokens))
    return AdminAuth.of({ bearer: run, accessToken: run })
  })
)

/** What an admin token minted with the shared secret carries. */
export interface MintOptions {
  readonly secret: Redacted.Redacted<string>
  readonly scopes: ReadonlyArray<string>
  readonly subject?: string | undefined
  /** `exp`: a lifetime (`"5m"`, `"3600s"`) or an absolute epoch second (jose's rule); `false` for none (refused by the gateway). */
  readonly expiresIn?: string | number | false | undefined
  readonly issuer?: string | undefined
  readonly audience?: string | undefined
  readonly jti?: string | undefined
}

/**
 * An HS256 admin bearer token signed with the shared secret
 * (`AUTH_JWT_SECRET`, its first while rotated): `scope` (space separated), `iat`, `exp` (default ten
 * minutes), and `sub`, `iss`, `aud`, `jti` when given. The ops CLI and the
 * tests mint their tokens here.
 */
export const mint = (options: MintOptions): Effect.Effect<string> =>
  Effect.promise(() => {
    const jwt = new SignJWT({ scope: options.scopes.join(" ") }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setIssuedAt()
    if (options.expiresIn !== false) jwt.setExpirationTime(options.expiresIn ?? "10m")
    if (options.subject !== undefined) jwt.setSubject(options.subject)
    if (options.issuer !== undefined) jwt.setIssuer(options.issuer)
    if (options.audience !== undefined) jwt.setAudience(options.audience)
    if (options.jti !== undefined) jwt.setJti(options.jti)
    return jwt.sign(new TextEncoder().encode(Redacted.value(options.secret)))
  })
