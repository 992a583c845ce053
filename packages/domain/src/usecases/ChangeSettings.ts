import { Effect } from "effect"
import type { MerchantId, MerchantNotFound } from "../Merchant.ts"
import { changedSettings, type MerchantSettings, type SettingsChange } from "../MerchantSettings.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"
import { checkOperatorUrls, OperatorUrlPolicy } from "../ports/OperatorUrlPolicy.ts"
import type { ValidationFailed } from "../Validation.ts"

/**
 * Changes a merchant's settings: every URL the gateway will call passes the
 * operator URL policy first (against SSRF), then the change is applied
 * atomically to the current values, keeping `minimumStake <= maximumStake`.
 */
export const changeSettings = Effect.fn("changeSettings")(function*(
  merchantId: MerchantId,
  change: SettingsChange
): Effect.fn.Return<MerchantSettings, MerchantNotFound | ValidationFailed, MerchantRepo | OperatorUrlPolicy> {
  yield* checkOperatorUrls(change)
  return yield* (yield* MerchantRepo).changeSettings(merchantId, changedSettings(change))
})
