import { Effect, Layer, Option, Redacted } from "effect"
import { CircuitBreaker, RateLimiter as Budgets } from "effect/persistence"
import { RateLimiter, SharedRateLimiter } from "@gateway/adapters-http"
import { OperatorCircuit } from "@gateway/adapters-operator"
import type { GatewayConfig } from "./Config.ts"

/**
 * Redis at `REDIS_URL`, one client for the process. A command is refused at
 * once while the connection is down (no offline queue): the rate limits fall
 * back to the instance's own buckets and the breakers let calls through,
 * rather than requests waiting for Redis. Unreachable at start-up: the
 * gateway does not start (one line naming `REDIS_URL`, never the URL).
 * The client is imported only then: without Redis it is never loaded.
 */
const redis = (url: Redacted.Redacted<string>) =>
  Layer.effectContext(
    Effect.promise(() => import("@effect/platform-node/NodeRedis")).pipe(
      Effect.flatMap((NodeRedis) =>
        Layer.build(
          NodeRedis.layer({ url: Redacted.value(url), disableOfflineQueue: true, socket: { connectTimeout: 5000 } })
        )
      ),
      Effect.mapError(() => new Error("REDIS_URL: Redis could not be reached"))
    )
  )

/**
 * The rate limits: with `REDIS_URL` one budget per key for every instance
 * (`SharedRateLimiter`), else this process's own buckets, as ever.
 */
export const rateLimiter = (config: GatewayConfig): Layer.Layer<RateLimiter.RateLimiter, Error> => {
  const options = { ...config.rateLimit, trustProxy: config.trustProxy }
  return Option.match(config.redis.url, {
    onNone: () => RateLimiter.layer(options),
    onSome: (url) =>
      SharedRateLimiter.layerShared(options).pipe(
        Layer.provide(Budgets.layerStoreRedis({ prefix: `${config.redis.keyPrefix}ratelimit:` })),
        Layer.provide(redis(url))
      )
  })
}

/**
 * The operators' circuit breakers (`OPERATOR_BREAKER_*`): with `REDIS_URL`
 * a circuit opened by one instance is open for all, else in this process.
 */
export const operatorCircuit = (config: GatewayConfig): Layer.Layer<OperatorCircuit.OperatorCircuit, Error> =>
  OperatorCircuit.layer(config.operatorBreaker).pipe(
    Layer.provide(Option.match(config.redis.url, {
      onNone: () => CircuitBreaker.layerStoreMemory(),
      onSome: (url) =>
        CircuitBreaker.layerStoreRedis({ prefix: `${config.redis.keyPrefix}breaker:` }).pipe(Layer.provide(redis(url)))
    }))
  )
