import { Effect, Layer, Redacted, Result } from "effect"
import { ApiKey, ApiKeyRepo, authenticateKey, MerchantRepo } from "@gateway/domain"
import { CurrentMerchant, OperatorAuth } from "../api/Security.ts"
import * as Problem from "../api/Problem.ts"
import * as Ports from "../Ports.ts"
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
const admit = (
  limiter: RateLimiter["Service"],
  header: string | undefined
): Effect.Effect<ApiKey.ApiKey, Problem.Problem> => {
  const parsed = ApiKey.parseApiKey(header)
  return Result.isFailure(parsed)
    ? Effect.fail(Problem.fromDomain(parsed.failure))
    : Effect.as(Effect.mapError(limiter.take(parsed.success.slug), Problem.fromDomain), parsed.success)
}

/**
 * The OperatorAuth middleware: the merchant of an `sv-api-key` (401
 * unknown/revoked, 403 not active), after the key's rate limit (429). It
 * runs before the query is decoded, so a bad key is refused first, as the
 * contract orders.
 */
export const layer: Layer.Layer<OperatorAuth, never, ApiKeyRepo | MerchantRepo | RateLimiter> =
  Layer.effect(
    OperatorAuth,
    Effect.gen(function*() {
      const provide = yield* Ports.capture(ApiKeyRepo, MerchantRepo)
      const limiter = yield* RateLimiter
      return OperatorAuth.of({
        svApiKey: (httpEffect, { credential }) => {
          return admit(limiter, headerOf(credential)).pipe(
            Effect.flatMap((key) =>
              authenticateKey(key).pipe(provide, Effect.mapError(Problem.fromDomain))
            ),
            Effect.flatMap((merchant) => Effect.provideService(httpEffect, CurrentMerchant, merchant))
          )
        }
      })
    })
  )
