import { Clock, Context, Effect, Layer } from "effect"
import { RateLimit } from "@gateway/domain"

/**
 * A token bucket per API key: `rps` tokens a second up to `burst`; `rps` 0
 * disables the limit. At most `maxKeys` buckets are kept (default 100 000).
 */
export interface RateLimitOptions {
  readonly rps: number
  readonly burst: number
  readonly maxKeys?: number | undefined
}

interface Bucket {
  tokens: number
  at: number
}

const SWEEP_EVERY_MS = 60_000

/**
 * The synchronous core: `take(key)` is 0 when a token was taken, else the
 * whole seconds (at least 1) until one is available. Buckets that have
 * refilled to `burst` carry no state and are swept once a minute; beyond
 * `maxKeys` the least recently used bucket is dropped.
 */
export const makeBuckets = (options: RateLimitOptions, now: () => number) => {
  const { burst, rps } = options
  const maxKeys = options.maxKeys ?? 100_000
  const perMs = rps / 1000
  const buckets = new Map<string, Bucket>()
  let sweptAt = now()
  const refill = (bucket: Bucket, at: number) => Math.min(burst, bucket.tokens + (at - bucket.at) * perMs)
  const sweep = (at: number) => {
    sweptAt = at
    for (const [key, bucket] of buckets) if (refill(bucket, at) >= burst) buckets.delete(key)
  }
  const take = (key: string): number => {
    const at = now()
    if (at - sweptAt >= SWEEP_EVERY_MS) sweep(at)
    let bucket = buckets.get(key)
    if (bucket === undefined) {
      if (buckets.size >= maxKeys) sweep(at)
      for (const oldest of buckets.keys()) {
        if (buckets.size < maxKeys) break
        buckets.delete(oldest)
      }
      bucket = { tokens: burst, at }
    } else {
      bucket.tokens = refill(bucket, at)
      bucket.at = at
      buckets.delete(key)
    }
    buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 0
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rps))
  }
  return { take, size: () => buckets.size }
}

/**
 * The per-API-key rate limit (CONTRACT §7), in memory: behind a load
 * balancer each instance keeps its own buckets, so a key may reach up to
 * `instances × RATE_LIMIT_RPS`.
 */
export class RateLimiter extends Context.Service<RateLimiter, {
  /** Takes a token of `key` (an API key's slug, never its secret), else fails with RateLimited. */
  take(key: string): Effect.Effect<void, RateLimit.RateLimited>
}>()("@gateway/adapters-http/middleware/RateLimiter") {}

/** A limiter on a clock; `rps` 0 lets everything through. */
export const make = (options: RateLimitOptions, clock: Clock.Clock): RateLimiter["Service"] => {
  if (options.rps <= 0) return RateLimiter.of({ take: () => Effect.void })
  const buckets = makeBuckets(options, () => clock.currentTimeMillisUnsafe())
  return RateLimiter.of({
    take: (key) =>
      Effect.suspend(() => {
        const retryAfterSeconds = buckets.take(key)
        return retryAfterSeconds === 0 ? Effect.void : Effect.fail(new RateLimit.RateLimited({ retryAfterSeconds }))
      })
  })
}

/** A limiter from explicit options (tests, or apps that read their own config). */
export const layer = (options: RateLimitOptions): Layer.Layer<RateLimiter> =>
  Layer.effect(RateLimiter, Effect.clockWith((clock) => Effect.succeed(make(options, clock))))
