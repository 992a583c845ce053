import { Effect, Layer, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { ApiKey, ApiKeyRepo, authenticateKey, MerchantRepo } from "@gateway/domain"
import { CurrentKeyPrefix, CurrentMerchant, OperatorAuth } from "../api/Security.ts"
import * as Problem from "../api/Problem.ts"
import * as Ports from "../Ports.ts"
import { RateLimiter } from "./RateLimiter.ts"

const headerOf = (credential: Redacted.Redacted<string>): string | undefined => {
  const value = Redacted.value(credential)
  return value === "" ? undefined : value
}

/**
 * The OperatorAuth middleware (CONTRACT §2): the merchant of an `sv-api-key`
 * — 401 when missing, malformed, unknown or revoked, 403 when the merchant
 * is not active — then the key's rate limit (429 with `retry-after`),
 * charged only once the key has verified. A client address whose failed
 * attempts are used up is answered 429 before anything is looked up, and
 * each 401 is charged to it. It runs before the query is decoded, so a bad
 * key is refused first, as the contract orders.
 */
export const layer: Layer.Layer<OperatorAuth, never, ApiKeyRepo | MerchantRepo | RateLimiter> =
  Layer.effect(
    OperatorAuth,
    Effect.gen(function*() {
      const provide = yield* Ports.capture(ApiKeyRepo, MerchantRepo)
      const limiter = yield* RateLimiter
      return OperatorAuth.of({
        svApiKey: (httpEffect, { credential }) =>
          Effect.gen(function*() {
            const address = limiter.addressOf(yield* HttpServerRequest.HttpServerRequest)
            yield* limiter.guard(address)
            const verified = yield* Effect.fromResult(ApiKey.parseApiKey(headerOf(credential))).pipe(
              Effect.flatMap((key) => Effect.map(authenticateKey(key).pipe(provide), (merchant) => ({ key, merchant }))),
              Effect.tapError((error) => error._tag === "Unauthorized" ? limiter.failed(address) : Effect.void)
            )
            yield* limiter.take(verified.key.slug)
            return verified
          }).pipe(
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
