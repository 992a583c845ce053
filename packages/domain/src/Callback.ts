import { Schema } from "effect"
import type { CurrencyCode } from "./Currency.ts"
import type { MerchantSettings } from "./MerchantSettings.ts"
import * as Money from "./Money.ts"
import { webhookUrlFor, WalletEventType, type WebhookUrlSettings } from "./Wallet.ts"

/** The non-money events sent to a merchant's `callbackUrl` (CONTRACT §10). */
export const CallbackEventType = Schema.Literals(["session.started", "session.ended", "round.settled"])
export type CallbackEventType = typeof CallbackEventType.Type

/** Every type of message the outbox holds: the wallet's and the callbacks'. */
export const MessageType = Schema.Literals([...WalletEventType.literals, ...CallbackEventType.literals])
export type MessageType = typeof MessageType.Type

/**
 * A guard of a literals schema as a set of its literals: the same check as `Schema.is`, without a schema's
 * guard on every message sent or claimed.
 */
const literalsGuard = <L extends string>(literals: ReadonlyArray<L>) => {
  const set: ReadonlySet<unknown> = new Set(literals)
  return (u: unknown): u is L => set.has(u)
}

/** Whether a value is a type of message the outbox holds (a claimed row's `type`, checked on every claim). */
export const isMessageType: (u: unknown) => u is MessageType = literalsGuard(MessageType.literals)

/** Whether a message type is a callback's. */
const isCallback: (type: MessageType) => type is CallbackEventType = literalsGuard(CallbackEventType.literals)

/**
 * Where a message goes, as a kind: `callback` (the merchant's `callbackUrl`)
 * or `wallet` (its Details and wallet URLs). The two can fail apart, so the
 * worker's prompt repair after an outage treats them apart.
 */
export type Destination = "wallet" | "callback"

/** The destination of a message of `type`. */
export const destinationOf = (type: MessageType): Destination => isCallback(type) ? "callback" : "wallet"

/** The settings a queued message's URL is chosen from: the wallet's URLs and `callbackUrl`. */
export type DeliverySettings = WebhookUrlSettings & Pick<MerchantSettings, "callbackUrl">

/**
 * Where a queued message goes: a callback to `callbackUrl`, a wallet message
 * to the URL of its type ({@link webhookUrlFor}). Undefined when none is set.
 */
export const deliveryUrlFor = (settings: DeliverySettings, type: MessageType): string | undefined =>
  isCallback(type) ? settings.callbackUrl : webhookUrlFor(settings, type)

/** Who a session is, as every session event names it. */
export interface SessionRef {
  readonly merchantId: number
  readonly playerId: string
  /** The operator's own session id, given at launch. */
  readonly sessionId: string
  readonly gameId: string
  readonly currency: CurrencyCode
  /** The retail shop the session is played at (the launch's `shopId`, CONTRACT §11); absent for online play. */
  readonly shopId?: string | undefined
}

/** A session's totals when it ends, in minor units: rounds settled, their stakes and their payouts. */
export interface SessionTotals {
  readonly rounds: number
  readonly bets: bigint
  readonly wins: bigint
}

/** Who a session is, playing `gameId` (a lobby session plays other games than the one launched). */
export const sessionRefOf = (
  session: {
    readonly merchantId: number
    readonly playerId: string
    readonly operatorSessionId: string
    readonly currency: CurrencyCode
    readonly shop?: { readonly shopId: string } | undefined
  },
  gameId: string
): SessionRef => ({
  merchantId: session.merchantId,
  playerId: session.playerId,
  sessionId: session.operatorSessionId,
  gameId,
  currency: session.currency,
  ...(session.shop === undefined ? {} : { shopId: session.shop.shopId })
})

/** Why a session ended: its idle expiry, or the operator ended it (CONTRACT §12). */
export type EndReason = "expired" | "terminated"

/** A settled round, as `round.settled` reports it. */
export interface SettledRound {
  readonly roundId: string
  readonly session: SessionRef
  /** The stake the round was played at; for a free round the grant's, never debited. */
  readonly stake: bigint
  readonly payout: bigint
  /** A free round (CONTRACT §13): the grant it was taken from, as the credit's `data.freeRound`. */
  readonly freeRound?: { readonly campaignId: string; readonly grantId: string } | undefined
  /** The selection and outcome as JSON text, as the round stored them. */
  readonly selection: string
  readonly outcome: string
}

const sessionData = (session: SessionRef) => ({
  merchantId: session.merchantId,
  playerId: session.playerId,
  sessionId: session.sessionId,
  gameId: session.gameId,
  currency: session.currency,
  ...(session.shopId === undefined ? {} : { shopId: session.shopId })
})
const amount = (minor: bigint, currency: CurrencyCode) => Money.format(Money.make(minor, currency))

/** The body of `session.started`, in the Standard Webhooks shape. */
export const sessionStartedBody = (session: SessionRef, timestamp: string) => ({
  type: "session.started" as const,
  timestamp,
  data: sessionData(session)
})

/** The body of `session.ended`, with the session's totals as decimal strings. */
export const sessionEndedBody = (session: SessionRef, reason: EndReason, totals: SessionTotals, timestamp: string) => ({
  type: "session.ended" as const,
  timestamp,
  data: {
    ...sessionData(session),
    reason,
    rounds: totals.rounds,
    bets: amount(totals.bets, session.currency),
    wins: amount(totals.wins, session.currency)
  }
})

/** The body of `round.settled`, with the link to the round's details and proof. */
export const roundSettledBody = (round: SettledRound, roundDetailsUrl: string, timestamp: string) => ({
  type: "round.settled" as const,
  timestamp,
  data: {
    roundId: round.roundId,
    ...sessionData(round.session),
    stake: amount(round.stake, round.session.currency),
    payout: amount(round.payout, round.session.currency),
    selection: JSON.parse(round.selection) as unknown,
    outcome: JSON.parse(round.outcome) as unknown,
    roundDetailsUrl,
    ...(round.freeRound === undefined
      ? {}
      : { freeRound: { campaignId: round.freeRound.campaignId, grantId: round.freeRound.grantId } })
  }
})
