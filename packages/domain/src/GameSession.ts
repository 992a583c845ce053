import { Schema } from "effect"
import { CurrencyCode } from "./Currency.ts"
import { Fairness } from "./Fairness.ts"
import { LaunchMode } from "./LaunchToken.ts"
import { MerchantId } from "./Merchant.ts"

/** A player's game session, opened by redeeming a launch token once. */
export class GameSession extends Schema.Class<GameSession>("@gateway/domain/GameSession")(Schema.Struct({
  id: Schema.String.check(Schema.isUUID()),
  merchantId: MerchantId,
  playerId: Schema.String,
  gameId: Schema.String,
  operatorSessionId: Schema.String,
  currency: CurrencyCode,
  mode: LaunchMode,
  lobby: Schema.Boolean,
  createdAt: Schema.DateTimeUtcFromString,
  expiresAt: Schema.DateTimeUtcFromString
}).annotate({
  identifier: "GameSession",
  description: "A player's game session, opened by redeeming a launch token once."
})) {}

/** The body of `POST /game-api/sessions`. */
export const RedeemRequest = Schema.Struct({
  token: Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(4096)).annotate({
    description: "The launch token: the `token` query parameter of the launch URL (a JWT, valid once)"
  })
}).annotate({
  identifier: "RedeemLaunchToken",
  description: "The body of `POST /game-api/sessions`: the launch token to redeem for a session token."
})

/** The virtual balance a demo session starts with, in major units of its currency. */
export const demoStartingBalance = "1000"

/** A session token that is unknown or past its idle expiry. */
export class SessionExpired extends Schema.TaggedError<SessionExpired>()("SessionExpired", {}) {
  override get message(): string {
    return "the game session is unknown or has expired; open the game again from the operator's site"
  }
}

/** A stake limit as the page gets it: exact, in major units, with at most the currency's fraction digits. */
const StakeLimit = Schema.Number.annotate({
  description: "A stake limit in major units of the session's currency, e.g. 12.5; stakes are compared with it exactly"
})

/** The merchant's branding and stake settings a game page needs. */
export const PageSettings = Schema.Struct({
  hideBalance: Schema.Boolean,
  logo1xUrl: Schema.optionalKey(Schema.String),
  logo2xUrl: Schema.optionalKey(Schema.String),
  cupImageUrl: Schema.optionalKey(Schema.String),
  fontFamilyUrl: Schema.optionalKey(Schema.String),
  minimumStake: Schema.optionalKey(StakeLimit),
  maximumStake: Schema.optionalKey(StakeLimit)
})
export type PageSettings = typeof PageSettings.Type

/** The answer of `POST /game-api/sessions`. */
export class SessionOpened extends Schema.Class<SessionOpened>("@gateway/domain/SessionOpened")(Schema.Struct({
  sessionToken: Schema.String,
  session: GameSession,
  balance: Schema.String,
  settings: PageSettings,
  fairness: Fairness.annotate({ description: "The committed server seed hash, the client seed and the next nonce (0)" })
}).annotate({
  identifier: "SessionOpened",
  description: "The answer of `POST /game-api/sessions`."
})) {}
