import { Effect } from "effect"
import { type ApiKey, parseApiKey } from "../ApiKey.ts"
import { Forbidden, Unauthorized } from "../Auth.ts"
import type { Merchant } from "../Merchant.ts"
import { ApiKeyRepo } from "../ports/ApiKeyRepo.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"

/**
 * The merchant of a parsed key. Unknown and revoked keys are Unauthorized; a
 * merchant that is not `active` is Forbidden. Untraced: it runs on every
 * operator request, where a span and its stack capture cost more than the
 * cached lookups themselves.
 */
export const authenticateKey = Effect.fnUntraced(function*(
  key: ApiKey
): Effect.fn.Return<Merchant, Unauthorized | Forbidden, ApiKeyRepo | MerchantRepo> {
  const merchantId = yield* (yield* ApiKeyRepo).authenticate(key)
  const merchant = yield* (yield* MerchantRepo).findById(merchantId).pipe(
    Effect.catchTag("MerchantNotFound", () => Effect.fail(new Unauthorized({ detail: "unknown sv-api-key" })))
  )
  if (merchant.accountStatus !== "active") {
    return yield* new Forbidden({ detail: `merchant account is ${merchant.accountStatus}` })
  }
  return merchant
})

/**
 * The merchant behind an `sv-api-key` header. Missing, malformed, unknown
 * and revoked keys are Unauthorized; a merchant that is not `active` is
 * Forbidden.
 */
export const authenticateApiKey = (
  header: string | undefined
): Effect.Effect<Merchant, Unauthorized | Forbidden, ApiKeyRepo | MerchantRepo> =>
  Effect.flatMap(Effect.fromResult(parseApiKey(header)), authenticateKey)
