import { Clock, Config, Effect, Layer, Schema } from "effect"
import { GameCatalog, MerchantRepo } from "@gateway/domain"
import * as TtlCache from "./TtlCache.ts"

/**
 * `MerchantRepo` with `findById` answers kept for `ttlMs`: the launch path
 * reads the merchant (with its settings) on every request. Changes through
 * this instance (settings, status) are seen at once; through another
 * instance within `ttlMs`. `ttlMs` 0 returns `inner` unchanged.
 */
export const merchants = (inner: MerchantRepo["Service"], ttlMs: number, clock: Clock.Clock): MerchantRepo["Service"] => {
  if (ttlMs <= 0) return inner
  const cache = TtlCache.make<number, Effect.Success<ReturnType<MerchantRepo["Service"]["findById"]>>>(
    { ttlMs, maxEntries: 10_000 },
    clock
  )
  return MerchantRepo.of({
    ...inner,
    findById: (id) => cache.through(id, inner.findById(id)),
    changeSettings: (id, change) => inner.changeSettings(id, change).pipe(Effect.ensuring(cache.invalidate(id))),
    changeStatus: (id, to) => inner.changeStatus(id, to).pipe(Effect.ensuring(cache.invalidate(id)))
  })
}

/**
 * `GameCatalog` with `find` answers kept for `ttlMs` (listing always asks the
 * database). Upserts and retirements through this instance are seen at once;
 * through another instance within `ttlMs`.
 */
export const catalog = (inner: GameCatalog["Service"], ttlMs: number, clock: Clock.Clock): GameCatalog["Service"] => {
  if (ttlMs <= 0) return inner
  const cache = TtlCache.make<string, Effect.Success<ReturnType<GameCatalog["Service"]["find"]>>>(
    { ttlMs, maxEntries: 10_000 },
    clock
  )
  return GameCatalog.of({
    ...inner,
    find: (id) => cache.through(id, inner.find(id)),
    upsert: (id, game) => inner.upsert(id, game).pipe(Effect.ensuring(cache.invalidate(id))),
    retire: (id) => inner.retire(id).pipe(Effect.ensuring(cache.invalidate(id)))
  })
}

/** `READ_CACHE_TTL_MS`: how long merchant and game reads are reused (default 1000; 0 disables; at most 10000). */
export const config = Config.schema(
  Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10_000 })),
  "READ_CACHE_TTL_MS"
).pipe(Config.withDefault(1000))

/** Decorates the `MerchantRepo` and `GameCatalog` below it with {@link merchants} and {@link catalog}. */
export const layer = (ttlMs: number): Layer.Layer<MerchantRepo | GameCatalog, never, MerchantRepo | GameCatalog> =>
  Layer.merge(
    Layer.effect(MerchantRepo, Effect.gen(function*() {
      return merchants(yield* MerchantRepo, ttlMs, yield* Clock.Clock)
    })),
    Layer.effect(GameCatalog, Effect.gen(function*() {
      return catalog(yield* GameCatalog, ttlMs, yield* Clock.Clock)
    }))
  )

/** {@link layer} with the TTL from {@link config}. */
export const layerConfig = Layer.unwrap(Effect.map(config, layer))
