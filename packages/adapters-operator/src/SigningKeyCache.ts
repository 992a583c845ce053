import { Effect } from "effect"
import type { MerchantId, MerchantNotFound } from "@gateway/domain/Merchant"
import type { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { prepare, type SigningKeys } from "./Signature.ts"

const MAX_ENTRIES = 10_000

/**
 * A merchant's signing keys, read (and decrypted, and parsed) at most once a
 * minute per merchant instead of on every message. A merchant's keys never
 * change after creation, so the bound only limits memory held for merchants
 * that stopped playing.
 */
export const make = (merchants: MerchantRepo["Service"], ttlMs = 60_000) => {
  const cache = new Map<number, { readonly keys: SigningKeys; readonly expires: number }>()
  return (merchantId: MerchantId): Effect.Effect<SigningKeys, MerchantNotFound> =>
    Effect.suspend(() => {
      const hit = cache.get(merchantId)
      if (hit !== undefined && hit.expires > Date.now()) return Effect.succeed(hit.keys)
      return merchants.secrets(merchantId).pipe(
        Effect.map(prepare),
        Effect.tap((keys) =>
          Effect.sync(() => {
            if (cache.size >= MAX_ENTRIES) cache.clear()
            cache.set(merchantId, { keys, expires: Date.now() + ttlMs })
          })
        )
      )
    })
}
