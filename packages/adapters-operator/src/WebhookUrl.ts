import type { MerchantSettings } from "@gateway/domain/MerchantSettings"
import type { WalletEventType } from "@gateway/domain/Wallet"

const specific = {
  "transaction.debit": "debitWebhookUrl",
  "transaction.credit": "creditWebhookUrl",
  "transaction.refund": "refundWebhookUrl",
  "webhook.test": "creditWebhookUrl"
} as const satisfies Record<WalletEventType, keyof MerchantSettings>

/**
 * The URL a wallet message of `type` goes to, read from the merchant's
 * current settings (CONTRACT §5). With `isSeperateWebhookUrl` the
 * type's own URL — debit, credit, refund; a `webhook.test` ping goes to the
 * credit URL, where queued messages arrive — falling back to `webhookUrl`
 * when that one is not set; otherwise `webhookUrl`. Undefined when none is set.
 */
export const webhookUrl = (settings: MerchantSettings, type: WalletEventType): string | undefined =>
  settings.isSeperateWebhookUrl === true ? settings[specific[type]] ?? settings.webhookUrl : settings.webhookUrl

/** The error recorded when a merchant has no URL for a message. */
export const noWebhookUrl = "no webhook URL configured"
