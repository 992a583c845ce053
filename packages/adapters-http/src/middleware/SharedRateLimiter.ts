import { Duration, Effect, Layer } from "effect"
import { RateLimiter as Budgets } from "effect/persistence"
import { RateLimit } from "@gateway/domain"
import { defaultFailures, make, type RateLimitOptions, RateLimiter } from "./RateLimiter.ts"

/** How long the shared store may take before a request is charged to this instance's own buckets instead. */
const storeTimeout = Duration.millis(250)

interface Budget {
  readonly rps: number
  readonly burst: number
}

/**
 * The rate limits of {@link RateLimiter} shared by every instance
 * (`REDIS_URL`): the same token buckets — `rps` a second up to `burst` per
 * API key and per game session, the failed-authentication budget per
 * address — kept in the `RateLimiterStore` of `effect/persistence` (Redis)
 * instead of this process, so N instances behind a load balancer refuse a
 * key once it has spent one budget between them. When the store fails or
 * takes longer than 250 ms, the request is charged to this instance's own
 * buckets, as without Redis: a Redis outage loosens the limits to one budget
 * per instance, it never refuses or stalls requests.
 */
export const layerShared = (options: RateLimitOptions): Layer.Layer<RateLimiter, never, Budgets.RateLimiterStore> =>
  Layer.effect(
    RateLimiter,
    Effect.gen(function*() {
      const local = make(options, yield* Effect.clockWith(Effect.succeed))
      if (options.rps <= 0) return local
      const budgets = yield* Budgets.make
      const failures = options.failures ?? defaultFailures
      const charge = (
        budget: Budget,
        key: string,
        subject: RateLimit.RateLimitSubject,
        fallback: Effect.Effect<void, RateLimit.RateLimited>
      ): Effect.Effect<void, RateLimit.RateLimited> =>
        budgets.consume({
          algorithm: "token-bucket",
          onExceeded: "fail",
          key: `${subject}:${key}`,
          limit: budget.burst,
          window: Duration.millis((budget.burst * 1000) / budget.rps)
        }).pipe(
          Effect.timeoutOrElse({ duration: storeTimeout, orElse: () => Effect.succeed(undefined) }),
          Effect.matchEffect({
            onSuccess: (result) => result === undefined ? fallback : Effect.void,
            onFailure: (error) =>
              error.reason._tag === "RateLimitExceeded"
                ? Effect.fail(
                  new RateLimit.RateLimited({
                    retryAfterSeconds: Math.max(1, Math.ceil(Duration.toMillis(error.reason.retryAfter) / 1000)),
                    subject
                  })
                )
                : fallback
          })
        )
      return RateLimiter.of({
        take: (key, subject) => charge(options, key, subject, local.take(key, subject)),
        failed: (address) => charge(failures, address, "address", local.failed(address)),
        addressOf: local.addressOf
      })
    })
  )
