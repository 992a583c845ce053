import { Effect } from "effect"
import { type ApiKey, parseApiKey } from "../ApiKey.ts"
import { Forbidden, Unauthorized } from "../Auth.ts"
import type { Merchant } from "../Merchant.ts"
import { ApiKeyRepo } from "../ports/ApiKeyRepo.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"

const unknownKey = new Unauthorized({ detail: "unknown sv-api-key" })

/**
 * The merchant of a parsed key, with the repositories given once: unknown
 * and revoked keys are Unauthorized; a merchant that is not `active` is
 * Forbidden. A plain chain, no generator and no span: it runs on every
 * operator request, where a span and its stack capture cost more than the
 * cached lookups themselves.
 */
export const authenticateKeyWith = (keys: ApiKeyRepo["Service"], merchants: MerchantRepo["Service"]) =>
(key: ApiKey): Effect.Effect<Merchant, Unauthorized | Forbidden> =>
  Effect.flatMap(keys.authenticate(key), (merchantId) =>
    Effect.flatMap(
      Effect.catchTag(merchants.findById(merchantId), "MerchantNotFound", () => Effect.fail(unknownKey)),
      (merchant) =>
        merchant.accountStatus === "active"
          ? Effect.succeed(merchant)
          : Effect.fail(new Forbidden({ detail: `merchant account is ${merchant.accountStatus}` }))
    ))

/** {@link authenticateKeyWith} on the repositories of the context. */
export const authenticateKey = Effect.fnUntraced(function*(
  key: ApiKey
): Effect.fn.Return<Merchant, Unauthorized | Forbidden, ApiKeyRepo | MerchantRepo> {
  return yield* authenticateKeyWith(yield* ApiKeyRepo, yield* MerchantRepo)(key)
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
