import { Cache, Context, Duration, Effect, Exit, Layer } from "effect"
import type { MerchantId, MerchantNotFound } from "@gateway/domain/Merchant"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { prepare, type SigningKeys } from "./Signature.ts"

/**
 * Every merchant's signing keys, read (decrypted and parsed) at most once a
 * minute per merchant instead of on every message, and shared by the Details
 * client, the wallet client and the delivery worker; lookups that fail are
 * not kept. A rotation changes a merchant's keys: whoever learns of it (the
 * change feed, in every instance) calls `forget`, and the next message is
 * signed with what the repository holds. The end of a rotation's overlap
 * needs no forgetting: the kept keys carry it and stop signing with the old
 * key on time.
 */
export class MerchantSigningKeys extends Context.Service<MerchantSigningKeys, {
  get(merchantId: MerchantId): Effect.Effect<SigningKeys, MerchantNotFound>
  /** Forgets the keys of a merchant, or of every merchant (`undefined`): its keys were rotated. */
  forget(merchantId: MerchantId | undefined): Effect.Effect<void>
}>()("@gateway/adapters-operator/webhooks/MerchantSigningKeys") {}

/** How many merchants' keys are kept at most. */
export const capacity = 10_000

/** The keys of `MerchantRepo.secrets`, kept for `ttl` (default a minute) on the fiber's `Clock`. */
export const make = Effect.fnUntraced(function*(ttl: Duration.Input = Duration.minutes(1)) {
  const merchants = yield* MerchantRepo
  const cache = yield* Cache.makeWith((id: MerchantId) => Effect.map(merchants.secrets(id), prepare), {
    capacity,
    timeToLive: (exit) => Exit.isSuccess(exit) ? ttl : Duration.zero
  })
  return MerchantSigningKeys.of({
    get: (merchantId) => Cache.get(cache, merchantId),
    forget: (merchantId) => merchantId === undefined ? Cache.invalidateAll(cache) : Cache.invalidate(cache, merchantId)
  })
})

/** {@link make} as a layer: one cache for every caller that signs for merchants. */
export const layer = (ttl?: Duration.Input): Layer.Layer<MerchantSigningKeys, never, MerchantRepo> =>
  Layer.effect(MerchantSigningKeys, make(ttl))
