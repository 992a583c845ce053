import { Effect } from "effect"
import type { Clock } from "effect"

/**
 * A small in-memory cache of successful reads for `ttlMs`, at most
 * `maxEntries` (the oldest go first). A read that started before an
 * invalidation of its key is not stored, so a change made through this
 * instance is seen at once; other instances see it within `ttlMs`.
 */
export const make = <K, V>(options: { readonly ttlMs: number; readonly maxEntries: number }, clock: Clock.Clock) => {
  const entries = new Map<K, { readonly value: V; readonly expiresAt: number }>()
  const generations = new Map<K, number>()
  let generation = 0
  return {
    /** The cached value of `key`, else `read` (remembered when it succeeds). */
    through: <E, R>(key: K, read: Effect.Effect<V, E, R>): Effect.Effect<V, E, R> =>
      Effect.suspend(() => {
        const hit = entries.get(key)
        const now = clock.currentTimeMillisUnsafe()
        if (hit !== undefined && hit.expiresAt > now) return Effect.succeed(hit.value)
        entries.delete(key)
        const started = generation
        return Effect.tap(read, (value) =>
          Effect.sync(() => {
            if ((generations.get(key) ?? -1) > started) return
            if (entries.size >= options.maxEntries) {
              const oldest = entries.keys().next()
              if (oldest.done !== true) entries.delete(oldest.value)
            }
            entries.set(key, { value, expiresAt: clock.currentTimeMillisUnsafe() + options.ttlMs })
          }))
      }),
    /** Forgets `key`, and any read of it still in flight. */
    invalidate: (key: K): Effect.Effect<void> =>
      Effect.sync(() => {
        generation++
        generations.set(key, generation)
        if (generations.size > options.maxEntries) generations.clear()
        entries.delete(key)
      })
  }
}
