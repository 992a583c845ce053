import { Schema } from "effect"
import { type Callback, Currency, LaunchToken, Merchant, Player, Round, Shop, type Wallet } from "@gateway/domain"

/**
 * The calls the gateway makes to an operator (CONTRACT §5), as the OpenAPI
 * 3.1 `webhooks` section of `/openapi.json`, so an operator can generate a
 * server stub from it. The bodies are Schemas checked against the domain's
 * own types (below), and their JSON Schemas are generated from them: the
 * document follows the code that sends the calls.
 */

const AmountString = Schema.String.check(
  Schema.isPattern(/^(0|[1-9][0-9]{0,17})(\.[0-9]+)?$/u, { message: "must be a non-negative decimal string" })
).annotate({ description: "A decimal string in major units with the currency's minor-unit digits (`\"12.50\"`, `\"1000\"` in JPY), never a float." })

/** The body of a Details call: the player of a real-mode launch (or session redemption). */
export const DetailsRequest = Schema.Struct({
  playerId: Schema.String.annotate({ description: "The player to describe" }),
  sessionId: Schema.String.annotate({ description: "The operator's own session id, as given to generate-launch-url." }),
  gameId: Schema.String.annotate({ description: "The game being launched" }),
  mode: LaunchToken.LaunchMode.annotate({ description: "`real` or `demo`" }),
  currency: Schema.optionalKey(Currency.CurrencyCode).annotate({ description: "The launch's `currency` parameter, when given." })
}).annotate({ identifier: "OperatorDetailsRequest" })

/** The operator's Details answer, as the gateway decodes it. */
export const DetailsReply = Schema.Struct(Player.PlayerDetails.fields).annotate({ identifier: "OperatorPlayerDetails" })

/** The body of a shop Details call: the retail shop of a real-mode launch with a `shopId` (CONTRACT §11). */
export const ShopRequest = Schema.Struct({
  shopId: Schema.String.annotate({ description: "The shop to describe: the launch's `shopId` (1..64 characters)" }),
  sessionId: Schema.String.annotate({ description: "The operator's own session id, as given to generate-launch-url." }),
  gameId: Schema.String.annotate({ description: "The game being launched" }),
  mode: LaunchToken.LaunchMode.annotate({ description: "`real` (demo launches ask no one)" })
}).annotate({ identifier: "OperatorShopRequest" })

/** The operator's shop Details answer, as the gateway decodes it. */
export const ShopReply = Schema.Struct(Shop.ShopDetails.fields).annotate({ identifier: "OperatorShopDetails" })

/** The grant a free round was taken from (CONTRACT §13), as a free win's credit and its `round.settled` name it. */
const FreeRoundGrant = Schema.Struct({
  campaignId: Schema.String.annotate({ description: "The operator's campaign of the grant" }),
  grantId: Schema.String.annotate({ description: "The grant the free round was taken from" })
})

/** The `data` of a wallet message. */
export const TransactionData = Schema.Struct({
  transactionId: Schema.String.annotate({ description: "The idempotency key; equals `webhook-id`, the same on every retry." }),
  refTransactionId: Schema.optionalKey(Schema.String).annotate({
    description: "The debit that this credit settles or this refund reverses."
  }),
  roundId: Schema.String.annotate({ description: "The round the money is for" }),
  roundClosed: Schema.Boolean.annotate({ description: "Whether this message ends the round (a credit or a refund)" }),
  merchantId: Merchant.MerchantId.annotate({ description: "The merchant's id" }),
  playerId: Schema.String.annotate({ description: "The player's id" }),
  sessionId: Schema.String.annotate({ description: "The operator's session id, given at launch" }),
  gameId: Schema.String.annotate({ description: "The game played" }),
  amount: AmountString,
  currency: Currency.CurrencyCode,
  roundDetailsUrl: Schema.optionalKey(Schema.String).annotate({
    description: "Credits and refunds: the round's signed link (CONTRACT §10), valid for ever: an HTML page for people, " +
      "JSON with `accept: application/json` (selection, outcome, payout and, once revealed, the seed to verify the draw)."
  }),
  shopId: Schema.optionalKey(Schema.String).annotate({
    description: "The retail shop the round is played at (the launch's `shopId`, CONTRACT §11); absent for online play."
  }),
  freeRound: Schema.optionalKey(FreeRoundGrant).annotate({
    description: "On the credit of a free round's win only (CONTRACT §13): the grant it came from. Such a credit has no " +
      "`refTransactionId` (no debit was sent); a free round that loses sends nothing."
  })
}).annotate({ identifier: "WalletTransactionData" })

const Timestamp = Schema.String.annotate({ description: "When the message was created (ISO 8601, UTC); the same on every retry." })

const transaction = <T extends Exclude<Wallet.WalletEventType, "webhook.test">>(type: T, identifier: string) =>
  Schema.Struct({
    type: Schema.Literal(type).annotate({ description: "The message's type" }),
    timestamp: Timestamp,
    data: TransactionData.annotate({ description: "The money moved" })
  }).annotate({ identifier })

export const DebitMessage = transaction("transaction.debit", "WalletDebit")
export const CreditMessage = transaction("transaction.credit", "WalletCredit")
export const RefundMessage = transaction("transaction.refund", "WalletRefund")

/** The body of a `webhook.test` ping. */
export const TestMessage = Schema.Struct({
  type: Schema.Literal("webhook.test").annotate({ description: "The message's type" }),
  timestamp: Timestamp,
  data: Schema.Struct({
    merchantId: Merchant.MerchantId.annotate({ description: "The merchant's id" })
  }).annotate({ description: "The merchant pinged" })
}).annotate({ identifier: "WalletTest" })

/** Who a session event is about. */
const sessionFields = {
  merchantId: Merchant.MerchantId.annotate({ description: "The merchant's id" }),
  playerId: Schema.String.annotate({ description: "The player's id" }),
  sessionId: Schema.String.annotate({ description: "The operator's session id, given at launch" }),
  gameId: Schema.String.annotate({ description: "The game launched (or played, for a round)" }),
  currency: Currency.CurrencyCode,
  shopId: Schema.optionalKey(Schema.String).annotate({
    description: "The retail shop the session is played at (the launch's `shopId`, CONTRACT §11), as in the wallet " +
      "messages' `data.shopId`; absent for online play."
  })
}

const callback = <T extends Callback.CallbackEventType, D extends Schema.Top>(type: T, data: D, identifier: string) =>
  Schema.Struct({
    type: Schema.Literal(type).annotate({ description: "The event's type" }),
    timestamp: Timestamp,
    data
  }).annotate({ identifier })

/** `session.started`: a real-mode launch token was redeemed, the player's session is open. */
export const SessionStartedMessage = callback(
  "session.started",
  Schema.Struct(sessionFields).annotate({ description: "The session opened" }),
  "CallbackSessionStarted"
)

/** `session.ended`: a real-mode session ended, with its totals. */
export const SessionEndedMessage = callback(
  "session.ended",
  Schema.Struct({
    ...sessionFields,
    reason: Schema.Literals(["expired", "terminated"]).annotate({
      description: "`expired`: idle for `GAME_SESSION_IDLE_SECONDS`; `terminated`: ended by the operator"
    }),
    rounds: Schema.Int.annotate({ description: "Rounds settled in the session" }),
    bets: AmountString,
    wins: AmountString
  }).annotate({ description: "The session that ended and its totals: its settled `rounds`, the `bets` debited for them (a free round's stake is not one) and the `wins` paid" }),
  "CallbackSessionEnded"
)

/** `round.settled`: a real-money or free round was settled (its credit, if any, is queued in the same transaction). */
export const RoundSettledMessage = callback(
  "round.settled",
  Schema.Struct({
    roundId: Schema.String.annotate({ description: "The round's id (the credit's `data.roundId`)" }),
    ...sessionFields,
    stake: AmountString.annotate({
      description: "The stake the round was played at; for a free round the grant's stake, which was never debited " +
        "(so `session.ended` does not count it in `bets`)."
    }),
    payout: AmountString,
    selection: Round.Selection,
    outcome: Round.Outcome,
    roundDetailsUrl: Schema.String.annotate({
      description: "The round's signed link, valid for ever: an HTML page for people, JSON with `accept: application/json`"
    }),
    freeRound: Schema.optionalKey(FreeRoundGrant).annotate({
      description: "A free round only (CONTRACT §13), won or lost: the grant it came from, as the win's credit " +
        "`data.freeRound`. Absent for a real-money round."
    })
  }).annotate({ description: "The round settled" }),
  "CallbackRoundSettled"
)

/** The operator's answer to a wallet message: the player's balance after it. */
export const BalanceReply = Schema.Struct({
  balance: Player.DecimalString.annotate({ description: "The player's balance after the message, a decimal string" })
}).annotate({ identifier: "WalletBalance" })

type Assert<T extends true> = T
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/** The Schemas above describe exactly what the domain sends and decodes: a change on either side fails typecheck. */
export type MatchesDomain = [
  Assert<Same<typeof DetailsRequest.Type, Player.DetailsRequest>>,
  Assert<Same<typeof DetailsReply.Encoded, typeof Player.PlayerDetails.Encoded>>,
  Assert<Same<typeof ShopRequest.Type, Shop.ShopRequest>>,
  Assert<Same<typeof ShopReply.Encoded, typeof Shop.ShopDetails.Encoded>>,
  Assert<
    Same<
      typeof DebitMessage.Encoded | typeof CreditMessage.Encoded | typeof RefundMessage.Encoded,
      ReturnType<typeof Wallet.toWebhookBody>
    >
  >,
  Assert<Same<typeof SessionStartedMessage.Encoded, ReturnType<typeof Callback.sessionStartedBody>>>,
  Assert<Same<typeof SessionEndedMessage.Encoded, ReturnType<typeof Callback.sessionEndedBody>>>,
  Assert<Same<typeof RoundSettledMessage.Encoded, ReturnType<typeof Callback.roundSettledBody>>>
]
