import { Effect, Layer, Redacted, Result } from "effect"
import { ApiKey, ApiKeyRepo, authenticateApiKey, MerchantRepo } from "@gateway/domain"
import { ApiKeyHeader, CurrentMerchant, LaunchKey, OperatorAuth } from "./api/Security.ts"
import * as Problem from "./Problem.ts"
import { RateLimiter } from "./RateLimiter.ts"

const headerOf = (credential: Redacted.Redacted<string>): string | undefined => {
  const value = Redacted.value(credential)
  return value === "" ? undefined : value
}

/**
 * A well-formed key within its rate limit, checked before any lookup: 401
 * when missing or malformed, 429 (with `retry-after`) when the bucket of its
 * slug is empty.
 */
const admit = (limiter: RateLimiter["Service"], header: string | undefined): Effect.Effect<void, Problem.Problem> => {
  const parsed = ApiKey.parseApiKey(header)
  return Result.isFailure(parsed)
    ? Effect.fail(Problem.fromDomain(parsed.failure))
    : Effect.mapError(limiter.take(parsed.success.slug), Problem.fromDomain)
}

/** The merchant of a header, as the domain authenticates it. */
const authenticator = Effect.gen(function*() {
  const ports = yield* Effect.context<ApiKeyRepo | MerchantRepo>()
  const limiter = yield* RateLimiter
  return (header: string | undefined) =>
    admit(limiter, header).pipe(
      Effect.andThen(() => authenticateApiKey(header).pipe(Effect.provideContext(ports))),
      Effect.mapError((error) => error instanceof Problem.Problem ? error : Problem.fromDomain(error))
    )
})

/**
 * The OperatorAuth middleware: the merchant of an `sv-api-key` (401
 * unknown/revoked, 403 not active), after the key's rate limit (429).
 */
export const OperatorAuthLive: Layer.Layer<OperatorAuth, never, ApiKeyRepo | MerchantRepo | RateLimiter> =
  Layer.effect(
    OperatorAuth,
    Effect.map(authenticator, (authenticate) =>
      OperatorAuth.of({
        svApiKey: (httpEffect, { credential }) =>
          authenticate(headerOf(credential)).pipe(
            Effect.flatMap((merchant) => Effect.provideService(httpEffect, CurrentMerchant, merchant))
          )
      }))
  )

/**
 * The LaunchKey middleware: the key is authenticated (401/403/429) before
 * the query is even decoded, so the contract's order of checks holds — key,
 * then game, … The launch use case checks it again from the header (served by
 * the key and read caches).
 */
export const LaunchKeyLive: Layer.Layer<LaunchKey, never, ApiKeyRepo | MerchantRepo | RateLimiter> = Layer.effect(
  LaunchKey,
  Effect.map(authenticator, (authenticate) =>
    LaunchKey.of({
      svApiKey: (httpEffect, { credential }) =>
        authenticate(headerOf(credential)).pipe(
          Effect.andThen(Effect.provideService(httpEffect, ApiKeyHeader, credential))
        )
    }))
)

/** Both API-key middlewares; provide a {@link RateLimiter} (`RateLimiter.layerConfig`). */
export const layer: Layer.Layer<OperatorAuth | LaunchKey, never, ApiKeyRepo | MerchantRepo | RateLimiter> = Layer.mergeAll(
  OperatorAuthLive,
  LaunchKeyLive
)
