import { Clock, Context, Effect, Layer, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { RateLimit } from "@gateway/domain"
import * as Problem from "@gateway/client/api/Problem"

/**
 * A token bucket per API key (and per game session): `rps` tokens a second
 * up to `burst`; `rps` 0 disables every limit here. At most `maxKeys`
 * buckets are kept (default 100 000).
 */
export interface RateLimitOptions {
  readonly rps: number
  readonly burst: number
  readonly maxKeys?: number | undefined
  /** Failed authentications allowed per client address (default 5 a second, a burst of 50). */
  readonly failures?: { readonly rps: number; readonly burst: number } | undefined
  /**
   * The client address is the last `x-forwarded-for` entry (the one the load
   * balancer in front of us added) instead of the connection's peer. Only
   * behind a proxy that sets it: otherwise clients could choose their address.
   */
  readonly trustProxy?: boolean | undefined
}

/** The failed-authentication budget of one client address when none is given. */
export const defaultFailures = { rps: 5, burst: 50 } as const

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
 * The rate limits, in memory: behind a load balancer each instance keeps its
 * own buckets, so a key may reach up to `instances × RATE_LIMIT_RPS`.
 * Buckets are charged only after authentication: an API key's (CONTRACT §7)
 * once the key has verified, a game session's per token digest. Failed
 * authentications are charged to the client's address, after the
 * credential was checked: a valid credential is never refused because of
 * failures others made from its address (CONTRACT §2); only the failing
 * requests of an address that has spent its failures are answered 429
 * instead of 401.
 */
export class RateLimiter extends Context.Service<RateLimiter, {
  /** Takes a token of `key` (an API key's slug or a session's digest, never a secret), else fails with RateLimited of `subject`. */
  take(key: string, subject: RateLimit.RateLimitSubject): Effect.Effect<void, RateLimit.RateLimited>
  /** Charges a failed authentication to the address; fails with RateLimited once the address has spent its failures. */
  failed(address: string): Effect.Effect<void, RateLimit.RateLimited>
  /** The client's address: the connection's peer, or the proxy's `x-forwarded-for` entry when trusted. */
  addressOf(request: HttpServerRequest.HttpServerRequest): string
}>()("@gateway/adapters-http/middleware/RateLimiter") {}

const peerOf = (request: HttpServerRequest.HttpServerRequest) => Option.getOrElse(request.remoteAddress, () => "unknown")

/** The last entry of `x-forwarded-for`, else the peer. */
const forwardedOf = (request: HttpServerRequest.HttpServerRequest) => {
  const entries = (request.headers["x-forwarded-for"] ?? "").split(",")
  const last = entries[entries.length - 1]?.trim() ?? ""
  return last === "" || last.length > 64 ? peerOf(request) : last
}

const limited = (retryAfterSeconds: number, subject: RateLimit.RateLimitSubject) =>
  retryAfterSeconds === 0 ? Effect.void : Effect.fail(new RateLimit.RateLimited({ retryAfterSeconds, subject }))

/** A limiter on a clock; `rps` 0 lets everything through. */
export const make = (options: RateLimitOptions, clock: Clock.Clock): RateLimiter["Service"] => {
  const addressOf = options.trustProxy === true ? forwardedOf : peerOf
  if (options.rps <= 0) {
    return RateLimiter.of({ take: () => Effect.void, failed: () => Effect.void, addressOf })
  }
  const now = () => clock.currentTimeMillisUnsafe()
  const buckets = makeBuckets(options, now)
  const failures = makeBuckets({ ...(options.failures ?? defaultFailures), maxKeys: options.maxKeys }, now)
  return RateLimiter.of({
    take: (key, subject) => Effect.suspend(() => limited(buckets.take(key), subject)),
    failed: (address) => Effect.suspend(() => limited(failures.take(address), "address")),
    addressOf
  })
}

/**
 * `effect` on behalf of the request's client address: a 401 it fails with
 * is charged to the address, and becomes 429 (failed authentications from
 * this address) once the address has spent them. Whatever succeeds or
 * fails otherwise is never touched by the address's failures.
 */
export const guardFailures = (limiter: RateLimiter["Service"]) =>
<A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E | Problem.Problem, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.tapError(
      effect,
      (error) =>
        error instanceof Problem.Problem && error.status === 401
          ? Effect.mapError(limiter.failed(limiter.addressOf(request)), Problem.fromDomain)
          : Effect.void
    ))

/** A limiter from explicit options (tests, or apps that read their own config). */
export const layer = (options: RateLimitOptions): Layer.Layer<RateLimiter> =>
  Layer.effect(RateLimiter, Effect.clockWith((clock) => Effect.succeed(make(options, clock))))
