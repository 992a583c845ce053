import { MerchantId } from "@gateway/domain/Merchant"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { Cache, Effect, Layer } from "effect"
import { ChangeFeed } from "./ChangeFeed.ts"
import * as Hits from "./Hits.ts"

/**
 * `MerchantRepo` with `findById` answers kept for `ttlMs` (misses are not
 * kept): the launch path reads the merchant with its settings on every
 * request. A change through this instance (settings, status) is forgotten at
 * once, even by a read in flight; `forget` is how the change feed reports
 * every other instance's. `ttlMs` 0 returns `inner` unchanged.
 */
export const make = (inner: MerchantRepo["Service"], ttlMs: number) =>
  Effect.gen(function*() {
    if (ttlMs <= 0) return { service: inner, cache: undefined }
    const cache = yield* Hits.make(inner.findById, ttlMs)
    const forget = (id: MerchantId) => Cache.invalidate(cache, id)
    const service = MerchantRepo.of({
      ...inner,
      findById: (id) => Cache.get(cache, id),
      changeSettings: (id, change) => inner.changeSettings(id, change).pipe(Effect.ensuring(forget(id))),
      changeStatus: (id, to) => inner.changeStatus(id, to).pipe(Effect.ensuring(forget(id)))
    })
    return { service, cache }
  })

/**
 * Decorates the `MerchantRepo` below it; a merchant changed through any
 * instance is forgotten as soon as the {@link ChangeFeed} reports it.
 */
export const layer = (ttlMs: number): Layer.Layer<MerchantRepo, never, MerchantRepo | ChangeFeed> =>
  Layer.effect(
    MerchantRepo,
    Effect.gen(function*() {
      const { service, cache } = yield* make(yield* MerchantRepo, ttlMs)
      if (cache !== undefined) yield* Hits.forgetChanges(cache, "merchants", (key) => MerchantId.make(Number(key)))
      return service
    })
  )
