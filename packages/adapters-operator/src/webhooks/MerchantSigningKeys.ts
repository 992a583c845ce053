import { Cache, Context, Duration, Effect, Exit, Layer } from "effect"
import type { MerchantId, MerchantNotFound } from "@gateway/domain/Merchant"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { prepare, type SigningKeys } from "./Signature.ts"

/**
 * Every merchant's signing keys, read (decrypted and parsed) at most once a
 * minute per merchant instead of on every message, and shared by the Details
 * client, the wallet client and the delivery worker. A merchant's keys never
 * change after creation, so the bound only limits memory held for merchants
 * that stopped playing; lookups that fail are not kept.
 */
export class MerchantSigningKeys extends Context.Service<MerchantSigningKeys, {
  get(merchantId: MerchantId): Effect.Effect<SigningKeys, MerchantNotFound>
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
  return MerchantSigningKeys.of({ get: (merchantId) => Cache.get(cache, merchantId) })
})

/** {@link make} as a layer: one cache for every caller that signs for merchants. */
export const layer = (ttl?: Duration.Input): Layer.Layer<MerchantSigningKeys, never, MerchantRepo> =>
  Layer.effect(MerchantSigningKeys, make(ttl))
