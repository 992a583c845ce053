import type { MerchantId } from "@gateway/domain/Merchant"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { Cache, Effect, Layer } from "effect"
import * as Hits from "./Hits.ts"

/**
 * `MerchantRepo` with `findById` answers kept for `ttlMs` (misses are not
 * kept): the launch path reads the merchant with its settings on every
 * request. Changes through this instance (settings, status) are seen at
 * once, even by a read in flight; through another instance within `ttlMs`.
 * `ttlMs` 0 returns `inner` unchanged.
 */
export const make = (inner: MerchantRepo["Service"], ttlMs: number): Effect.Effect<MerchantRepo["Service"]> =>
  Effect.gen(function*() {
    if (ttlMs <= 0) return inner
    const cache = yield* Hits.make(inner.findById, ttlMs)
    const forget = (id: MerchantId) => Cache.invalidate(cache, id)
    return MerchantRepo.of({
      ...inner,
      findById: (id) => Cache.get(cache, id),
      changeSettings: (id, change) => inner.changeSettings(id, change).pipe(Effect.ensuring(forget(id))),
      changeStatus: (id, to) => inner.changeStatus(id, to).pipe(Effect.ensuring(forget(id)))
    })
  })

/** Decorates the `MerchantRepo` below it. */
export const layer = (ttlMs: number): Layer.Layer<MerchantRepo, never, MerchantRepo> =>
  Layer.effect(MerchantRepo, Effect.flatMap(MerchantRepo, (inner) => make(inner, ttlMs)))
