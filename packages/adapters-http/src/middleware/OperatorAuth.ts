import { Context, Effect, Layer, Redacted, Result } from "effect"
import { HttpServerRequest } from "effect/http"
import { ApiKey, ApiKeyRepo, authenticateKeyWith, type Auth, KeyAccess, type Merchant, MerchantRepo, type RateLimit } from "@gateway/domain"
import type { HttpApiEndpoint } from "effect/http-api"
import { CurrentKeyPrefix, CurrentMerchant, KeyOperation, OperatorAuth } from "@gateway/client/api/Security"
import * as Problem from "@gateway/client/api/Problem"
import { RateLimiter } from "./RateLimiter.ts"

const headerOf = (credential: Redacted.Redacted<string>): string | undefined => {
  const value = Redacted.value(credential)
  return value === "" ? undefined : value
}

/** A verified `sv-api-key` and its merchant. */
export interface Verified {
  readonly key: ApiKey.ApiKey
  readonly merchant: Merchant.Merchant
}

type Refused = Auth.Unauthorized | Auth.Forbidden | RateLimit.RateLimited

/**
 * The checks of an `sv-api-key`, in the contract's order: the key (401 when
 * missing, malformed, unknown or revoked; 403 when its merchant is not
 * active), then the key's rate limit (429), charged only once the key has
 * verified. A 401 is charged to the client's address by `onUnauthorized`,
 * which answers 429 instead once the address has spent its failures; a key
 * that verifies is never refused for its address's failures (CONTRACT §2).
 */
const checks = Effect.gen(function*() {
  const authenticate = authenticateKeyWith(yield* ApiKeyRepo, yield* MerchantRepo)
  const limiter = yield* RateLimiter
  return (
    request: HttpServerRequest.HttpServerRequest,
    header: string | undefined,
    onUnauthorized: (address: string) => Effect.Effect<void, RateLimit.RateLimited>
  ): Effect.Effect<Verified, Refused> => {
    const parsed = ApiKey.parseApiKey(header)
    const verified: Effect.Effect<Verified, Auth.Unauthorized | Auth.Forbidden> = Result.isFailure(parsed)
      ? Effect.fail(parsed.failure)
      : Effect.map(authenticate(parsed.success), (merchant) => ({ key: parsed.success, merchant }))
    return verified.pipe(
      Effect.tapError((error) => error._tag === "Unauthorized" ? onUnauthorized(limiter.addressOf(request)) : Effect.void),
      Effect.flatMap((checked) => Effect.as(limiter.take(checked.key.slug, "apiKey"), checked))
    )
  }
})

/**
 * The checks of the OperatorAuth middleware for a path that hands every
 * request they refuse to the API itself (which checks it again and charges
 * a 401 to the client's address there): the same checks, the key's rate
 * limit charged, a 401 not charged.
 */
export const verify: Effect.Effect<
  (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<Verified, Refused>,
  never,
  ApiKeyRepo | MerchantRepo | RateLimiter
> = Effect.map(checks, (check) => (request) => check(request, request.headers["sv-api-key"], () => Effect.void))

/**
 * What an endpoint does, as its {@link KeyOperation} annotation says; without one, a write (a GET: a read of
 * real-money data), so an endpoint nobody classified is for live keys only.
 */
export const operationOf = (endpoint: HttpApiEndpoint.Top): KeyAccess.KeyOperation =>
  Context.get(endpoint.annotations, KeyOperation) ?? (endpoint.method === "GET" ? "readRealMoney" : "write")

/**
 * The OperatorAuth middleware (CONTRACT §2): the merchant of an `sv-api-key`
 * — 401 when missing, malformed, unknown or revoked, 403 when the merchant
 * is not active — then the key's rate limit (429 with `retry-after`),
 * charged only once the key has verified, then what the key's environment
 * allows ({@link KeyAccess.authorise}: an `sv_test` key that would touch
 * real money is 403). Each 401 is charged to the client's address, and
 * becomes 429 once the address has spent its failed attempts; a valid key
 * from that address is still answered. It runs before the query is decoded, so a bad
 * key is refused first, as the contract orders.
 */
export const layer: Layer.Layer<OperatorAuth, never, ApiKeyRepo | MerchantRepo | RateLimiter> =
  Layer.effect(
    OperatorAuth,
    Effect.gen(function*() {
      const check = yield* checks
      const limiter = yield* RateLimiter
      return OperatorAuth.of({
        svApiKey: (httpEffect, { credential, endpoint }) =>
          Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
            check(request, headerOf(credential), limiter.failed)).pipe(
              Effect.tap(({ key }) => Effect.fromResult(KeyAccess.authorise(key.prefix, operationOf(endpoint)))),
              Effect.mapError(Problem.fromDomain),
              Effect.flatMap(({ key, merchant }) =>
                httpEffect.pipe(
                  Effect.provideService(CurrentMerchant, merchant),
                  Effect.provideService(CurrentKeyPrefix, key.prefix)
                )
              )
            )
      })
    })
  )
