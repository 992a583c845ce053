import { Context, Effect } from "effect"
import type { SettingsChange, SettingsField } from "../MerchantSettings.ts"
import type { ValidationFailed } from "../Validation.ts"

/**
 * Which operator URLs the gateway may call, checked when settings are saved
 * (against SSRF): a URL whose host is, or resolves to, a loopback, private,
 * link-local, unique-local or unspecified address is refused.
 */
export class OperatorUrlPolicy extends Context.Service<OperatorUrlPolicy, {
  /** Succeeds when the gateway may call `url`; else ValidationFailed naming `field`. */
  check(field: string, url: string): Effect.Effect<void, ValidationFailed>
}>()("@gateway/domain/ports/OperatorUrlPolicy") {}

/**
 * The settings fields the gateway itself calls. The branding URLs are
 * fetched by players' browsers, not by the gateway, and only need http(s).
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

/** Checks every called URL a settings change sets (absent and `null` fields are skipped), in field order. */
export const checkOperatorUrls = (
  change: SettingsChange
): Effect.Effect<void, ValidationFailed, OperatorUrlPolicy> =>
  OperatorUrlPolicy.use((policy) =>
    Effect.forEach(calledUrlFields, (field) => {
      const url = change[field]
      return url === undefined || url === null ? Effect.void : policy.check(field, url)
    }, { discard: true })
  )
