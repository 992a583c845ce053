import { Cache, Duration, type Effect, Exit } from "effect"

/** How many entries a repository cache keeps at most (the oldest go first). */
export const capacity = 10_000

/**
 * The one cache mechanism of the repository caches: Effect's `Cache` over
 * `lookup`, keeping successful answers (those `keep` accepts) for `ttlMs` on
 * the fiber's `Clock`, and never a failure, so a miss is asked again.
 * `Cache.invalidate` forgets a key at once, a lookup still in flight
 * included.
 */
export const make = <K, A, E>(
  lookup: (key: K) => Effect.Effect<A, E>,
  ttlMs: number,
  keep: (value: A) => boolean = () => true
): Effect.Effect<Cache.Cache<K, A, E>> =>
  Cache.makeWith(lookup, {
    capacity,
    timeToLive: (exit) => Exit.isSuccess(exit) && keep(exit.value) ? Duration.millis(ttlMs) : Duration.zero
  })
