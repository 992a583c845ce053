import { Cache, Duration, Effect, Exit } from "effect"
import { onChanges, type Topic } from "./ChangeFeed.ts"

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

/**
 * Forgets, for the life of the scope, the entries whose rows the change feed
 * reports changed under `topic` — every entry when the whole topic changed.
 * `keyOf` turns the feed's key (text) into the cache's.
 */
export const forgetChanges = <K, A, E>(cache: Cache.Cache<K, A, E>, topic: Topic, keyOf: (key: string) => K) =>
  onChanges(topic, (key) => key === undefined ? Cache.invalidateAll(cache) : Cache.invalidate(cache, keyOf(key)))

/**
 * Forgets `key` for a change made through this instance: at once (a lookup
 * in flight included) and again when the transaction the change is part of
 * commits (`afterCommit`, i.e. `SqlClient.afterCommit`, which runs it at once
 * outside a transaction): until then another request may read the row as
 * committed before, and keep it.
 */
export const forgetChange = <K, A, E>(
  cache: Cache.Cache<K, A, E>,
  key: K,
  afterCommit: (effect: Effect.Effect<void>) => Effect.Effect<void>
): Effect.Effect<void> => Effect.andThen(Cache.invalidate(cache, key), afterCommit(Cache.invalidate(cache, key)))
