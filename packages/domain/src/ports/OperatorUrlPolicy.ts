import { Context, Effect } from "effect"
import type { SettingsChange, SettingsField } from "../MerchantSettings.ts"
import type { ValidationFailed } from "../Validation.ts"

/**
 * Which operator URLs the gateway may call, checked when settings are saved
 * (against SSRF): a URL whose host is, or resolves to, a loopback, private,
 * link-local, unique-local or unspecified address is refused. And which URLs
 * the game page may load (branding): https only, but where private operator
 * URLs are allowed (local development, where the gateway itself is plain http).
 */
export class OperatorUrlPolicy extends Context.Service<OperatorUrlPolicy, {
  /** Succeeds when the gateway may call `url`; else ValidationFailed naming `field`. */
  check(field: string, url: string): Effect.Effect<void, ValidationFailed>
  /** Succeeds when the game page may load `url` (a logo, the cup image, the font); else ValidationFailed naming `field`. */
  checkPageUrl(field: string, url: string): Effect.Effect<void, ValidationFailed>
}>()("@gateway/domain/ports/OperatorUrlPolicy") {}

/**
 * The settings fields the gateway itself calls. The branding URLs
 * ({@link pageUrlFields}) are fetched by players' browsers, not by the gateway.
 */
export const calledUrlFields = [
  "userDetailsUrl",
  "shopDetailsUrl",
  "webhookUrl",
  "creditWebhookUrl",
  "debitWebhookUrl",
  "refundWebhookUrl",
  "callbackUrl"
] as const satisfies ReadonlyArray<SettingsField>

/** The settings fields the game page loads: what a player's browser fetches. */
export const pageUrlFields = ["logo1xUrl", "logo2xUrl", "cupImageUrl", "fontFamilyUrl"] as const satisfies ReadonlyArray<
  SettingsField
>

/**
 * Checks every URL a settings change sets (absent and `null` fields are
 * skipped): the called ones in field order, then the ones the page loads.
 */
export const checkOperatorUrls = (
  change: SettingsChange
): Effect.Effect<void, ValidationFailed, OperatorUrlPolicy> =>
  OperatorUrlPolicy.use((policy) =>
    Effect.andThen(
      Effect.forEach(calledUrlFields, (field) => {
        const url = change[field]
        return url === undefined || url === null ? Effect.void : policy.check(field, url)
      }, { discard: true }),
      Effect.forEach(pageUrlFields, (field) => {
        const url = change[field]
        return url === undefined || url === null ? Effect.void : policy.checkPageUrl(field, url)
      }, { discard: true })
    )
  )
