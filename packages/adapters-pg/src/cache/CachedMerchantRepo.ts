import { MerchantId } from "@gateway/domain/Merchant"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { Cache, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { ChangeFeed } from "./ChangeFeed.ts"
import * as Hits from "./Hits.ts"

/**
 * `MerchantRepo` with `findById` answers kept for `ttlMs` (misses are not
 * kept): the launch path reads the merchant with its settings on every
 * request. A change through this instance (settings, status) is forgotten at
 * once, even by a read in flight, and again once the transaction it is part
 * of commits (`afterCommit`, e.g. `SqlClient.afterCommit`): another request
 * may read the row as committed before (and keep it) until then. The change
 * feed is how every other instance's changes are reported. `ttlMs` 0
 * returns `inner` unchanged.
 */
export const make = (
  inner: MerchantRepo["Service"],
  ttlMs: number,
  afterCommit: (effect: Effect.Effect<void>) => Effect.Effect<void> = () => Effect.void
) =>
  Effect.gen(function*() {
    if (ttlMs <= 0) return { service: inner, cache: undefined }
    const cache = yield* Hits.make(inner.findById, ttlMs)
    const forget = (id: MerchantId) => Hits.forgetChange(cache, id, afterCommit)
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
export const layer = (ttlMs: number): Layer.Layer<MerchantRepo, never, MerchantRepo | ChangeFeed | SqlClient> =>
  Layer.effect(
    MerchantRepo,
    Effect.gen(function*() {
      const { service, cache } = yield* make(yield* MerchantRepo, ttlMs, (yield* SqlClient).afterCommit)
      if (cache !== undefined) yield* Hits.forgetChanges(cache, "merchants", (key) => MerchantId.make(Number(key)))
      return service
    })
  )
