import { Effect } from "effect"
import type { MerchantId, MerchantNotFound } from "../Merchant.ts"
import { changedSettings, type MerchantSettings, type SettingsChange } from "../MerchantSettings.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"
import { checkOperatorUrls, OperatorUrlPolicy } from "../ports/OperatorUrlPolicy.ts"
import type { ValidationFailed } from "../Validation.ts"

/**
 * Changes a merchant's settings: every URL the gateway will call passes the
 * operator URL policy first (against SSRF), then the change is applied
 * atomically to the current values. Stake limits must be exact amounts of the
 * merchant's currency (no more fraction digits than it has, at most the
 * largest stake) and stay ordered, `minimumStake <= maximumStake`.
 */
export const changeSettings = Effect.fn("changeSettings")(function*(
  merchantId: MerchantId,
  change: SettingsChange
): Effect.fn.Return<MerchantSettings, MerchantNotFound | ValidationFailed, MerchantRepo | OperatorUrlPolicy> {
  yield* checkOperatorUrls(change)
  const merchants = yield* MerchantRepo
  const { currency } = yield* merchants.findById(merchantId)
  return yield* merchants.changeSettings(merchantId, changedSettings(change, currency))
})
