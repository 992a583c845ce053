import { Schema } from "effect"
import type { CurrencyCode } from "./Currency.ts"
import type { MerchantSettings } from "./MerchantSettings.ts"
import * as Money from "./Money.ts"

/** The webhook event types of the seamless wallet (CONTRACT §5). */
export const WalletEventType = Schema.Literals([
  "transaction.debit",
  "transaction.credit",
  "transaction.refund",
  "webhook.test"
])
export type WalletEventType = typeof WalletEventType.Type

/** One money movement reported to the operator's wallet. `transactionId` is its idempotency key. */
export interface WalletTransaction {
  readonly type: Exclude<WalletEventType, "webhook.test">
  readonly transactionId: string
  /** The debit that a credit settles or a refund reverses. */
  readonly refTransactionId?: string | undefined
  readonly roundId: string
  readonly roundClosed: boolean
  readonly merchantId: number
  readonly playerId: string
  readonly sessionId: string
  readonly gameId: string
  readonly amount: Money.Money
  /** The signed link to the round's details and proof (CONTRACT §10), on credits and refunds. */
  readonly roundDetailsUrl?: string | undefined
  /** The retail shop of the session (CONTRACT §11), when it was launched with one. */
  readonly shopId?: string | undefined
  /** The grant a free round's credit comes from (CONTRACT §13); such a credit settles no debit. */
  readonly freeRound?: { readonly campaignId: string; readonly grantId: string } | undefined
}

/** The JSON body of a wallet webhook, in the Standard Webhooks shape, amounts as decimal strings. */
export const toWebhookBody = (tx: WalletTransaction, timestamp: string) => ({
  type: tx.type,
  timestamp,
  data: {
    transactionId: tx.transactionId,
    ...(tx.refTransactionId === undefined ? {} : { refTransactionId: tx.refTransactionId }),
    roundId: tx.roundId,
    roundClosed: tx.roundClosed,
    merchantId: tx.merchantId,
    playerId: tx.playerId,
    sessionId: tx.sessionId,
    gameId: tx.gameId,
    amount: Money.format(tx.amount),
    currency: tx.amount.currency satisfies CurrencyCode,
    ...(tx.roundDetailsUrl === undefined ? {} : { roundDetailsUrl: tx.roundDetailsUrl }),
    ...(tx.shopId === undefined ? {} : { shopId: tx.shopId }),
    ...(tx.freeRound === undefined ? {} : { freeRound: { campaignId: tx.freeRound.campaignId, grantId: tx.freeRound.grantId } })
  }
})

/** The operator's wallet refused the bet (4xx: insufficient funds, limits). Nothing else is sent. */
export class BetRefused extends Schema.TaggedError<BetRefused>()("BetRefused", {
  operatorStatus: Schema.Int
}) {
  override get message(): string {
    return `the operator's wallet refused the bet (HTTP ${this.operatorStatus})`
  }
}

/** The debit's outcome is unknown (time-out, 5xx, network): the bet is rejected and a refund is queued. */
export class WalletUnavailable extends Schema.TaggedError<WalletUnavailable>()("WalletUnavailable", {
  detail: Schema.String
}) {
  override get message(): string {
    return `${this.detail}; the bet was rejected and any debit will be refunded`
  }
}

/** A demo session's virtual balance does not cover the stake. */
export class InsufficientFunds extends Schema.TaggedError<InsufficientFunds>()("InsufficientFunds", {}) {
  override get message(): string {
    return "the balance does not cover the stake"
  }
}

/** The operator's answer to a debit: its balance after the debit, a decimal string. */
export interface DebitAccepted {
  readonly balance: string
}

/** The settings a wallet message's URL is chosen from ({@link webhookUrlFor}). */
export type WebhookUrlSettings = Pick<
  MerchantSettings,
  "webhookUrl" | "isSeperateWebhookUrl" | "debitWebhookUrl" | "creditWebhookUrl" | "refundWebhookUrl"
>

const specificUrl = {
  "transaction.debit": "debitWebhookUrl",
  "transaction.credit": "creditWebhookUrl",
  "transaction.refund": "refundWebhookUrl",
  "webhook.test": "creditWebhookUrl"
} as const satisfies Record<WalletEventType, keyof MerchantSettings>

/**
 * The URL a wallet message of `type` goes to (CONTRACT §5). With
 * `isSeperateWebhookUrl` the type's own URL — debit, credit, refund; a
 * `webhook.test` ping goes to the credit URL, where queued messages arrive —
 * falling back to `webhookUrl` when that one is not set; otherwise
 * `webhookUrl`. Undefined when none is set.
 */
export const webhookUrlFor = (settings: WebhookUrlSettings, type: WalletEventType): string | undefined =>
  settings.isSeperateWebhookUrl === true ? settings[specificUrl[type]] ?? settings.webhookUrl : settings.webhookUrl

/** A real-mode bet for a merchant with no webhook URL for debits: nothing is sent, nothing is booked. */
export class WebhookUrlNotSet extends Schema.TaggedError<WebhookUrlNotSet>()("WebhookUrlNotSet", {}) {
  override get message(): string {
    return "the merchant has no webhook URL for debits; set webhookUrl (or debitWebhookUrl) in MerchantSettings"
  }
}
