import { Effect } from "effect"
import { parseApiKey } from "../ApiKey.ts"
import { Forbidden, Unauthorized } from "../Auth.ts"
import type { Merchant } from "../Merchant.ts"
import { ApiKeyRepo } from "../ports/ApiKeyRepo.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"

/**
 * The merchant behind an `sv-api-key` header. Missing, malformed, unknown
 * and revoked keys are Unauthorized; a merchant that is not `active` is
 * Forbidden.
 */
export const authenticateApiKey = Effect.fn("authenticateApiKey")(function*(
  header: string | undefined
): Effect.fn.Return<Merchant, Unauthorized | Forbidden, ApiKeyRepo | MerchantRepo> {
  const key = yield* Effect.fromResult(parseApiKey(header))
  const merchantId = yield* (yield* ApiKeyRepo).authenticate(key)
  const merchant = yield* (yield* MerchantRepo).findById(merchantId).pipe(
    Effect.catchTag("MerchantNotFound", () => Effect.fail(new Unauthorized({ detail: "unknown sv-api-key" })))
  )
  if (merchant.accountStatus !== "active") {
    return yield* new Forbidden({ detail: `merchant account is ${merchant.accountStatus}` })
  }
  return merchant
})
