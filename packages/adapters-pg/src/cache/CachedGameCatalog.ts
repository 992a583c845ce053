import { GameCatalog } from "@gateway/domain/ports/GameCatalog"
import { Cache, Effect, Layer } from "effect"
import * as Hits from "./Hits.ts"

/**
 * `GameCatalog` with `find` answers kept for `ttlMs` (misses are not kept;
 * listing always asks the catalogue). Upserts and retirements through this
 * instance are seen at once; through another instance within `ttlMs`.
 * `ttlMs` 0 returns `inner` unchanged.
 */
export const make = (inner: GameCatalog["Service"], ttlMs: number): Effect.Effect<GameCatalog["Service"]> =>
  Effect.gen(function*() {
    if (ttlMs <= 0) return inner
    const cache = yield* Hits.make(inner.find, ttlMs)
    const forget = (id: string) => Cache.invalidate(cache, id)
    return GameCatalog.of({
      ...inner,
      find: (id) => Cache.get(cache, id),
      upsert: (id, game) => inner.upsert(id, game).pipe(Effect.ensuring(forget(id))),
      retire: (id) => inner.retire(id).pipe(Effect.ensuring(forget(id)))
    })
  })

/** Decorates the `GameCatalog` below it. */
export const layer = (ttlMs: number): Layer.Layer<GameCatalog, never, GameCatalog> =>
  Layer.effect(GameCatalog, Effect.flatMap(GameCatalog, (inner) => make(inner, ttlMs)))
