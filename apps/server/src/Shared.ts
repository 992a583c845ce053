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
 * What the instances share: with `REDIS_URL`, the rate limits (one budget
 * per key for every instance, `SharedRateLimiter`) and the operators'
 * circuit breakers (a circuit opened by one instance is open for all), over
 * one Redis client; without it, this process's own buckets, as ever, and
 * breakers in memory.
 */
export const layers = (config: GatewayConfig): {
  readonly rateLimiter: Layer.Layer<RateLimiter.RateLimiter, Error>
  readonly operatorCircuit: Layer.Layer<OperatorCircuit.OperatorCircuit, Error>
} => {
  const options = { ...config.rateLimit, trustProxy: config.trustProxy }
  const prefix = config.redis.keyPrefix
  return Option.match(Option.map(config.redis.url, redis), {
    onNone: () => ({
      rateLimiter: RateLimiter.layer(options),
      operatorCircuit: OperatorCircuit.layerMemory(config.operatorBreaker)
    }),
    // One layer value for both: built once, one client.
    onSome: (client) => ({
      rateLimiter: SharedRateLimiter.layerShared(options).pipe(
        Layer.provide(Budgets.layerStoreRedis({ prefix: `${prefix}ratelimit:` })),
        Layer.provide(client)
      ),
      operatorCircuit: OperatorCircuit.layer(config.operatorBreaker).pipe(
        Layer.provide(CircuitBreaker.layerStoreRedis({ prefix: `${prefix}breaker:` })),
        Layer.provide(client)
      )
    })
  })
}
