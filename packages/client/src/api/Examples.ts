import { Schema } from "effect"
import {
  Audit,
  Autoplay,
  Delivery,
  DeliveryAttempt,
  Fairness,
  FreeRound,
  Game,
  GameSession,
  LaunchToken,
  Lobby,
  Merchant,
  MerchantSettings,
  PageLaunch,
  Paging,
  Report,
  RevenueShareReport,
  Round,
  SecretRotation,
  SessionControl,
  Shop
} from "@gateway/domain"
import * as AuditApi from "./Audit.ts"
import * as Backoffice from "./Backoffice.ts"
import * as BackofficeOps from "./BackofficeOps.ts"
import * as Deliveries from "./Deliveries.ts"
import * as Games from "./Games.ts"
import * as Merchants from "./Merchants.ts"
import * as System from "./System.ts"
import * as Webhooks from "./Webhooks.ts"

/**
 * One example of each named schema of `/openapi.json`, written as it travels on the wire: each value is typed
 * by its schema's `Encoded` side, so a changed field fails typecheck, and `openapiExamples.test.ts` decodes
 * every one with its schema and validates it with ajv against the document. `withExamples` (Document.ts) puts
 * them under the schema's component as `examples`.
 */
export interface Example {
  readonly schema: Schema.Top
  readonly value: unknown
  /** Decodes the value with its schema, as the gateway reads it off the wire; throws what it refuses. */
  readonly decode: () => unknown
}

const example = <S extends Schema.Top & Schema.ConstraintDecoder<unknown, never>>(schema: S, value: S["Encoded"]): Example => ({
  schema,
  value,
  decode: () => Schema.decodeUnknownSync(Schema.toCodecJson(schema))(value)
})

const at = "2026-11-25T09:30:00.000Z"
const later = "2026-11-25T09:42:17.000Z"

const meta = (totalElements: number, limit = 20): typeof Paging.PageMeta.Encoded => ({
  currentPage: 1,
  limit,
  nextPage: totalElements > limit ? 2 : 0,
  prevPage: 0,
  totalElements,
  totalPage: Math.ceil(totalElements / limit)
})

const settings: typeof MerchantSettings.MerchantSettings.Encoded = {
  id: 118,
  createdAt: at,
  updatedAt: later,
  merchantId: 42,
  userDetailsUrl: "https://wallet.casino.example/gateway/details",
  webhookUrl: "https://wallet.casino.example/gateway/webhooks",
  isSeperateWebhookUrl: false,
  frameAncestors: "https://casino.example",
  hideBalance: false,
  logo1xUrl: "https://cdn.casino.example/logo.png",
  logo2xUrl: "https://cdn.casino.example/logo@2x.png",
  minimumStake: 0.5,
  maximumStake: 500,
  providerPercentProfit: 10,
  merchantPercentProfit: 60,
  agentPercentProfit: 5,
  superProviderPercentProfit: 5,
  userPercentProfit: 0,
  oddEvenGameProfit: 2.7,
  underOverGameProfit: 2.7
}

const auditEntry: typeof Audit.AuditEntry.Encoded = {
  id: "1207",
  merchantId: 42,
  at,
  actor: "alice@ops.example",
  address: "203.0.113.7",
  action: "merchant.settings",
  before: { oddEvenGameProfit: 96, webhookUrl: null },
  after: { oddEvenGameProfit: 97, webhookUrl: "https://ops.example/wallet" }
}

const backofficeUser: typeof Backoffice.User.Encoded = {
  id: 17,
  email: "payments@casino.example",
  role: "owner",
  isDefaultPassword: false,
  verifiedEmail: true,
  totpEnabled: false,
  invitationPending: false
}

const merchant: typeof Merchant.Merchant.Encoded = {
  id: 42,
  createdAt: at,
  updatedAt: later,
  email: "payments@casino.example",
  accountStatus: "active",
  clientId: "c0a8e5b2-6f1d-4e3a-9b7c-2d4f6a8b1c3e",
  companyName: "Casino Example Ltd",
  country: "MT",
  currency: "EUR",
  hashedClientId: "5f2b9c1e7a3d4b6f8e0a2c4d6e8f0a1b3c5d7e9f1a2b4c6d8e0f2a4b6c8d0e1f",
  phoneNumber: "",
  providerId: 7,
  publicKey: "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n",
  MerchantSettings: settings,
  isDefaultPassword: true,
  verifiedEmail: false
}

const game: typeof Game.Game.Encoded = {
  id: "odd-even",
  name: "Odd Even",
  releaseDate: "2026-01-15",
  baseLaunchUrl: "https://games.provider.example/play/odd-even",
  category: 1,
  imageUrl: "https://games.provider.example/static/games/odd-even.svg"
}

const session: typeof GameSession.GameSession.Encoded = {
  id: "0b6f5c8e-2a4d-4f1b-9c3e-7d8a1b2c3d4e",
  merchantId: 42,
  playerId: "player-1001",
  gameId: "odd-even",
  operatorSessionId: "sess-7f3a9c",
  currency: "EUR",
  mode: "real",
  lobby: false,
  createdAt: at,
  expiresAt: "2026-11-25T13:30:00.000Z",
  rtp: { "odd-even": "97.50" }
}

const fairness: typeof Fairness.Fairness.Encoded = {
  serverSeedHash: "3f9a1c0e5b7d2f4a6c8e0b1d3f5a7c9e2b4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a",
  clientSeed: "lucky-7",
  nonce: 12
}

const transaction = (type: "debit" | "credit", amount: string): typeof Report.RoundTransaction.Encoded => ({
  transactionId: `msg_${type === "debit" ? "9d2c4e1a-5b7f-4c3d-8e9a-1b2c3d4e5f60" : "4a6b8c0d-2e4f-4a1b-9c3d-5e6f7a8b9c0d"}`,
  type,
  amount,
  status: "delivered"
})

const roundLink = "https://gateway.example/rounds/7c1e9a3b-5d2f-4e6a-8b0c-1d3e5f7a9b2c?sig=q3Zr9X1cVb7mN0pL4kJ8hG2fD6sA5wE3tY1uI9oP0aQ"

const round: typeof Report.OperatorRound.Encoded = {
  roundId: "7c1e9a3b-5d2f-4e6a-8b0c-1d3e5f7a9b2c",
  gameId: "odd-even",
  playerId: "player-1001",
  sessionId: session.id,
  mode: "real",
  status: "settled",
  stake: "5.00",
  payout: "9.73",
  currency: "EUR",
  createdAt: later,
  transactions: [transaction("debit", "5.00"), transaction("credit", "9.73")],
  roundDetailsUrl: roundLink
}

const roundView: typeof Round.RoundView.Encoded = {
  roundId: round.roundId,
  gameId: "odd-even",
  mode: "real",
  status: "settled",
  stake: "5.00",
  selection: "odd",
  outcome: { number: 17, parity: "odd", summary: "17 odd" },
  payout: "9.73",
  createdAt: later,
  fairness
}

const grant: typeof FreeRound.FreeRoundGrant.Encoded = {
  id: "3f6c1a2b-7d4e-4b8a-9c0d-1e2f3a4b5c6d",
  campaignId: "welcome-2026",
  playerId: "player-1001",
  gameId: "odd-even",
  rounds: 10,
  remaining: 7,
  stake: "1.00",
  currency: "EUR",
  status: "active",
  expiresAt: "2026-12-31T23:59:59.000Z",
  createdAt: at
}

const sessionFreeRounds: typeof FreeRound.SessionFreeRounds.Encoded = {
  grantId: grant.id,
  campaignId: grant.campaignId,
  remaining: 7,
  stake: "1.00",
  expiresAt: grant.expiresAt
}

const figures = { rounds: 1840, bets: "9200.00", wins: "8810.40", refunds: "15.00", ggr: "374.60", freeWins: "12.00" }

const revenueShare: typeof RevenueShareReport.RevenueShareReport.Encoded = {
  merchantId: 42,
  companyName: "Casino Example Ltd",
  currency: "EUR",
  from: "2026-11-01T00:00:00.000Z",
  to: "2026-12-01T00:00:00.000Z",
  ggr: "374.60",
  parts: [
    { party: "provider", setting: "providerPercentProfit", percent: "10", amount: "37.46" },
    { party: "superProvider", setting: "superProviderPercentProfit", percent: "5", amount: "18.73" },
    { party: "agent", setting: "agentPercentProfit", percent: "5", amount: "18.73" },
    { party: "merchant", setting: "merchantPercentProfit", percent: "60", amount: "224.76" },
    { party: "user", setting: "userPercentProfit", percent: "0", amount: "0.00" }
  ],
  remainder: "74.92",
  capped: false
}

const listedDelivery: typeof Delivery.ListedDelivery.Encoded = {
  id: "msg_4a6b8c0d-2e4f-4a1b-9c3d-5e6f7a8b9c0d",
  merchantId: 42,
  type: "transaction.credit",
  status: "pending",
  attempts: 2,
  lastError: "HTTP 503 from the webhook URL",
  lastStatus: 503,
  createdAt: at,
  nextAttemptAt: "2026-11-28T14:16:09.000Z"
}

const attemptRequest: typeof DeliveryAttempt.AttemptRequest.Encoded = {
  method: "POST",
  url: "https://wallet.casino.example/gateway/webhooks?token=…",
  headers: {
    "content-type": "application/json",
    "webhook-id": listedDelivery.id,
    "webhook-timestamp": "1795599000",
    "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= v1a,3q2+7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
  },
  body: "{\"type\":\"transaction.credit\",\"timestamp\":\"2026-11-25T09:30:00.000Z\",\"data\":{}}"
}
const attemptAnswer: typeof DeliveryAttempt.AttemptAnswer.Encoded = {
  status: 503,
  headers: { "content-type": "application/json", "retry-after": "120" },
  body: "{\"error\":\"wallet maintenance\"}"
}
const deliveryAttempt: typeof DeliveryAttempt.DeliveryAttempt.Encoded = {
  at,
  durationMs: 184,
  request: attemptRequest,
  answer: attemptAnswer
}
const backofficeKey: typeof BackofficeOps.BackofficeApiKey.Encoded = {
  slug: "k3y5lug42abc",
  prefix: "sv_live",
  createdAt: at,
  lastUsedAt: later
}

const walletData: typeof Webhooks.TransactionData.Encoded = {
  transactionId: "msg_9d2c4e1a-5b7f-4c3d-8e9a-1b2c3d4e5f60",
  roundId: round.roundId,
  roundClosed: false,
  merchantId: 42,
  playerId: "player-1001",
  sessionId: "sess-7f3a9c",
  gameId: "odd-even",
  amount: "5.00",
  currency: "EUR"
}

const settled: typeof Webhooks.TransactionData.Encoded = {
  ...walletData,
  transactionId: "msg_4a6b8c0d-2e4f-4a1b-9c3d-5e6f7a8b9c0d",
  refTransactionId: walletData.transactionId,
  roundClosed: true,
  amount: "9.73",
  roundDetailsUrl: roundLink
}

const sessionRef = {
  merchantId: 42,
  playerId: "player-1001",
  sessionId: "sess-7f3a9c",
  gameId: "odd-even",
  currency: "EUR" as const
}

const jwk: typeof LaunchToken.LaunchJwk.Encoded = {
  kty: "OKP",
  crv: "Ed25519",
  x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
  kid: "launch-2026-11-25",
  alg: "EdDSA",
  use: "sig"
}

/** Every named schema's example. */
export const examples: ReadonlyArray<Example> = [
  example(Paging.PageMeta, meta(57)),
  example(MerchantSettings.MerchantSettings, settings),
  example(MerchantSettings.SettingsChange, {
    webhookUrl: "https://wallet.casino.example/gateway/webhooks",
    minimumStake: "0.50",
    maximumStake: 500,
    logo2xUrl: null
  }),
  example(Merchant.Merchant, merchant),
  example(Merchant.CreateMerchantRequest, {
    countryCodes: ["MT", "DE"],
    companyName: "Casino Example Ltd",
    email: "payments@casino.example",
    providerId: 7
  }),
  example(Merchant.MerchantCreated, {
    ...merchant,
    MerchantSettings: { id: 118, createdAt: at, updatedAt: at, merchantId: 42 },
    updatedAt: at,
    password: "Xq7!vR2m#Lp9sT4w",
    privateKey: "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n-----END PRIVATE KEY-----\n",
    encryptionKey: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwZ3x1Qk8sJ0c=",
    otpToken: "482913"
  }),
  example(Merchants.MerchantList, { data: [merchant], meta: meta(1) }),
  example(Merchants.StatusChange, { accountStatus: "suspended" }),
  example(Merchants.IssueApiKey[0], { prefix: "sv_live" }),
  example(Merchants.IssuedApiKey, {
    apiKey: "sv_live.Xk3mQ9vR2pL7sT4wZ8yB1nC6dF0gH5jK-a_MeP2uV9q.k3y5lug42",
    prefix: "sv_live",
    slug: "k3y5lug42",
    createdAt: at
  }),
  example(SecretRotation.RotateSecretRequest, { secret: "encryptionKey", overlapSeconds: 3600 }),
  example(SecretRotation.RotatedSecret, {
    secret: "encryptionKey",
    overlapUntil: "2026-11-25T10:30:00.000Z",
    encryptionKey: "whsec_3nB8s1cQm0Yk2VfR5tLx9wHqJd7uPa4eZg6oNi1bCr8="
  }),
  example(SecretRotation.RevealedSecret, { encryptionKey: "whsec_3nB8s1cQm0Yk2VfR5tLx9wHqJd7uPa4eZg6oNi1bCr8=" }),
  example(Audit.AuditEntry, auditEntry),
  example(AuditApi.AuditList, { data: [auditEntry], meta: meta(1) }),
  example(Game.Game, game),
  example(Games.GameList, { data: [game], meta: meta(6) }),
  example(Games.GameUpsert, {
    name: "Odd Even",
    releaseDate: "2026-01-15",
    baseLaunchUrl: "https://games.provider.example/play/odd-even",
    category: 1,
    imageUrl: "https://games.provider.example/static/games/odd-even.svg"
  }),
  example(LaunchToken.LaunchUrl, {
    success: true,
    url: "https://gateway.provider.example/play/odd-even?token=eyJhbGciOiJFZERTQSIsImtpZCI6ImxhdW5jaC0yMDI2LTExLTI1In0.eyJhdWQiOiJsYXVuY2gifQ.c2lnbmF0dXJl"
  }),
  example(LaunchToken.LaunchJwk, jwk),
  example(System.Jwks, { keys: [jwk] }),
  example(System.Status, { status: "ok" }),
  example(System.RotatedKey, { kid: "launch-2026-11-26" }),
  example(Delivery.ListedDelivery, listedDelivery),
  example(Deliveries.Deliveries, { data: [listedDelivery] }),
  example(DeliveryAttempt.AttemptRequest, attemptRequest),
  example(DeliveryAttempt.AttemptAnswer, attemptAnswer),
  example(DeliveryAttempt.DeliveryAttempt, deliveryAttempt),
  example(DeliveryAttempt.DeliveryDetail, {
    ...listedDelivery,
    body: attemptRequest.body,
    attemptLog: [deliveryAttempt, { at: later, durationMs: 5000, request: attemptRequest, error: "no answer within 5000 ms" }]
  }),
  example(DeliveryAttempt.PingResult, {
    deliveryId: "test_5d1f0a7e-3c2b-4e8d-9a6f-0b1c2d3e4f50",
    delivered: true,
    durationMs: 42,
    status: 200,
    body: "{\"ok\":true}"
  }),
  example(BackofficeOps.BackofficeApiKey, backofficeKey),
  example(BackofficeOps.BackofficeApiKeys, {
    data: [backofficeKey, { slug: "old5lug00xyz", prefix: "sv_test", createdAt: "2026-10-01T08:00:00.000Z", revokedAt: at }]
  }),
  example(Deliveries.TestQueued, { deliveryId: "msg_1f3e5d7c-9b2a-4c6e-8d0f-2a4c6e8f0b1d" }),
  example(GameSession.GameSession, session),
  example(PageLaunch.PageLaunch, { language: "fr", lobbyUrl: "https://casino.example/lobby", realityCheckMinutes: 30 }),
  example(GameSession.SessionOpened, {
    sessionToken: "q3Zt8Yv1mK0xR7pW2sN5bJ9cL4hD6fG-aE_uT0oI2yQ",
    session,
    balance: "250.00",
    settings: { hideBalance: false, logo1xUrl: "https://cdn.casino.example/logo.png", minimumStake: 0.5, maximumStake: 500 },
    fairness: { ...fairness, nonce: 0 },
    launch: { language: "fr", lobbyUrl: "https://casino.example/lobby", realityCheckMinutes: 30 },
    freeRounds: [sessionFreeRounds]
  }),
  example(FreeRound.SessionFreeRounds, sessionFreeRounds),
  example(FreeRound.FreeRoundGrant, grant),
  example(FreeRound.GrantList, { data: [grant], meta: meta(1) }),
  example(Round.RoundResult, {
    roundId: round.roundId,
    gameId: "odd-even",
    outcome: { number: 17, parity: "odd", summary: "17 odd" },
    payout: "9.73",
    balance: "254.73",
    fairness
  }),
  example(Round.RoundView, roundView),
  example(Round.RoundList, { data: [roundView], meta: meta(1) }),
  example(Round.RoundDetails, {
    ...roundView,
    currency: "EUR",
    fairness: { ...fairness, serverSeed: "b6f1c2d7e8a94f3b0c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b" }
  }),
  example(GameSession.RedeemRequest, {
    token: "eyJhbGciOiJFZERTQSIsImtpZCI6ImxhdW5jaC0yMDI2LTExLTI1In0.eyJhdWQiOiJsYXVuY2gifQ.c2lnbmF0dXJl"
  }),
  example(Fairness.RotateRequest, { clientSeed: "blue-moon" }),
  example(Fairness.SeedRotated, {
    previous: {
      serverSeed: "a41f0c9e7d3b5a2c8e6f1d0b9a7c5e3f",
      serverSeedHash: fairness.serverSeedHash,
      clientSeed: "lucky-7",
      nonces: 13
    },
    current: {
      serverSeedHash: "8e2d4c6a0f1b3d5e7a9c2e4f6b8d0a1c3e5f7b9d2a4c6e8f0b1d3a5c7e9f2b4d",
      clientSeed: "blue-moon",
      nonce: 0
    }
  }),
  example(Lobby.LobbyList, {
    data: [{ id: "odd-even", name: "Odd Even", category: 1, imageUrl: game.imageUrl, rtp: "97.30" }],
    meta: meta(6)
  }),
  example(Lobby.GameRulesView, {
    gameId: "odd-even",
    name: "Odd Even",
    description: "A number from 1 to 36 is drawn. Bet on whether it is odd or even: half of the numbers are odd, " +
      "half even, and a right call pays almost twice your stake.",
    selectionSchema: { type: "string", enum: ["odd", "even"] },
    examples: ["odd", "even"],
    rtp: "97.30",
    payouts: [{ condition: "the number drawn is odd", multiplier: "1.9460", selection: "odd" }],
    languages: ["en", "fr", "am", "sw"]
  }),
  example(Report.RoundTransaction, transaction("debit", "5.00")),
  example(Report.TransactionView, { ...transaction("credit", "9.73"), roundId: round.roundId, currency: "EUR" }),
  example(Report.OperatorRound, round),
  example(Report.OperatorRoundList, { data: [round], meta: meta(1) }),
  example(Report.Summary, {
    currency: "EUR",
    data: [{ key: "odd-even", ...figures }],
    meta: meta(1),
    total: figures
  }),
  example(RevenueShareReport.RevenueShareReport, revenueShare),
  example(RevenueShareReport.RevenueShareList, { data: [revenueShare], meta: meta(1) }),
  example(SessionControl.TerminateRequest, { playerId: "player-1001", sessionId: "sess-7f3a9c" }),
  example(SessionControl.TerminateResult, { terminated: 1 }),
  example(Autoplay.AutoplayRequest, { rounds: 50, lossLimit: "20.00" }),
  example(Autoplay.AutoplayStarted, { rounds: 50, lossLimit: "20.00" }),
  example(Webhooks.DetailsRequest, { playerId: "player-1001", sessionId: "sess-7f3a9c", gameId: "odd-even", mode: "real", currency: "EUR" }),
  example(Webhooks.DetailsReply, {
    playerId: "player-1001",
    currency: "EUR",
    balance: "250.00",
    status: "active",
    nickname: "LuckyAnna",
    country: "MT"
  }),
  example(Shop.SessionShop, { shopId: "shop-addis-01", name: "Bole Road Shop", minimumStake: "1.00", maximumStake: "500.00" }),
  example(Webhooks.ShopRequest, { shopId: "shop-addis-01", sessionId: "sess-7f3a9c", gameId: "odd-even", mode: "real" }),
  example(Webhooks.ShopReply, {
    shopId: "shop-addis-01",
    name: "Bole Road Shop",
    currency: "EUR",
    status: "active",
    minimumStake: "1.00",
    maximumStake: "500.00"
  }),
  example(Webhooks.TransactionData, walletData),
  example(Webhooks.DebitMessage, { type: "transaction.debit", timestamp: later, data: walletData }),
  example(Webhooks.CreditMessage, { type: "transaction.credit", timestamp: later, data: settled }),
  example(Webhooks.RefundMessage, {
    type: "transaction.refund",
    timestamp: later,
    data: { ...settled, transactionId: "msg_6c8e0a2b-4d6f-4b1c-8e3a-5f7b9d1c3e5a", amount: "5.00" }
  }),
  example(Webhooks.TestMessage, { type: "webhook.test", timestamp: at, data: { merchantId: 42 } }),
  example(Webhooks.BalanceReply, { balance: "245.00" }),
  example(Backoffice.User, backofficeUser),
  example(Backoffice.UserList, {
    data: [backofficeUser, { ...backofficeUser, id: 18, email: "finance@casino.example", role: "finance", invitationPending: true }],
    meta: meta(2)
  }),
  example(Backoffice.Login, { email: "payments@casino.example", password: "correct horse battery staple" }),
  example(Backoffice.SignedIn, { csrfToken: "Jp3cR0-8hVq2m1Yw8Xo6uKfL2eTt4bN9sDg7aZ1cQk0", user: backofficeUser }),
  example(Backoffice.PasswordChange, { currentPassword: "s9X2kQ7vLmN4pR8tW1yZ3bC6", newPassword: "correct horse battery staple" }),
  example(Backoffice.CodeBody, { code: "042917" }),
  example(Backoffice.ResetRequest, { email: "payments@casino.example" }),
  example(Backoffice.ResetConfirm, { email: "payments@casino.example", code: "042917", newPassword: "correct horse battery staple" }),
  example(Backoffice.AcceptInvitation, { email: "finance@casino.example", code: "042917", password: "ledger lines in winter" }),
  example(Backoffice.Invite, { email: "finance@casino.example", role: "finance" }),
  example(Backoffice.PasswordBody, { password: "correct horse battery staple" }),
  example(Backoffice.TotpEnrolment, {
    secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    otpauthUrl: "otpauth://totp/gateway.casino.example%3Apayments%40casino.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP" +
      "&issuer=gateway.casino.example&algorithm=SHA1&digits=6&period=30"
  }),
  example(Webhooks.SessionStartedMessage, { type: "session.started", timestamp: at, data: sessionRef }),
  example(Webhooks.SessionEndedMessage, {
    type: "session.ended",
    timestamp: "2026-11-25T10:12:17.000Z",
    // A shop terminal's session (CONTRACT §11): every event of a shop session names the shop.
    data: { ...sessionRef, shopId: "shop-addis-01", reason: "expired", rounds: 14, bets: "70.00", wins: "64.21" }
  }),
  example(Webhooks.RoundSettledMessage, {
    type: "round.settled",
    timestamp: later,
    data: {
      ...sessionRef,
      roundId: round.roundId,
      stake: "5.00",
      payout: "9.73",
      selection: "odd",
      outcome: { number: 17, parity: "odd", summary: "17 odd" },
      roundDetailsUrl: roundLink
    }
  })
]
