import { SessionFreeRounds } from "./FreeRound.ts"
import { Schema } from "effect"
import { type ProfitField, rtpFor } from "./games/Games.ts"
import type { SettingsValues } from "./MerchantSettings.ts"
import { CurrencyCode } from "./Currency.ts"
import { Fairness } from "./Fairness.ts"
import { LaunchMode } from "./LaunchToken.ts"
import { MerchantId } from "./Merchant.ts"
import { PageLaunch } from "./PageLaunch.ts"
import { SessionShop } from "./Shop.ts"
import { UtcTimestamp } from "./Validation.ts"

/**
 * The RTP in force in a session, by game id, in percent with 2 decimals (`"97.50"`): the merchant's
 * `…GameProfit` settings when the session opened, for every game it may play (the launched one; with the lobby,
 * every built-in game). A change of those settings applies to sessions opened after it, never mid-session.
 */
export const SessionRtp = Schema.Record(Schema.String, Schema.String).annotate({
  description: "The return to player in force in this session, by game id, in percent (e.g. {\"odd-even\": \"97.50\"}): " +
    "the merchant's settings when the session opened. A later change of a game's profit setting applies to " +
    "sessions opened after it, never mid-session"
})

/**
 * The RTP in basis points a game plays at in a session: the one fixed when the session opened, or — for a game
 * it did not list, or a session opened before sessions kept it — the merchant's `settings` now.
 */
export const rtpInSession = (
  session: { readonly rtp?: Readonly<Record<string, string>> },
  gameId: string,
  settings: Pick<SettingsValues, ProfitField> | undefined
): number => {
  const percent = session.rtp?.[gameId]
  return percent !== undefined && /^\d{1,3}\.\d{2}$/.test(percent)
    ? Number(percent.replace(".", ""))
    : rtpFor(gameId, settings)
}

/** A player's game session, opened by redeeming a launch token once. */
export class GameSession extends Schema.Class<GameSession>("@gateway/domain/GameSession")(Schema.Struct({
  id: Schema.String.check(Schema.isUUID()).annotate({ description: "The session's id" }),
  merchantId: MerchantId.annotate({ description: "The merchant whose player this is" }),
  playerId: Schema.String.annotate({ description: "The player's id in the operator's system" }),
  gameId: Schema.String.annotate({ description: "The game launched" }),
  operatorSessionId: Schema.String.annotate({ description: "The operator's own session id, given at launch" }),
  currency: CurrencyCode,
  mode: LaunchMode.annotate({ description: "`real` (money) or `demo` (virtual balance)" }),
  lobby: Schema.Boolean.annotate({ description: "Whether the session may play every built-in game (the lobby), not only the one launched" }),
  createdAt: UtcTimestamp("When the launch token was redeemed (ISO 8601, UTC)"),
  expiresAt: UtcTimestamp("When the session expires if it stays idle (ISO 8601, UTC); each round moves it on"),
  shop: Schema.optionalKey(SessionShop).annotate({
    description: "The retail shop the session is played at, for a launch with a `shopId` (CONTRACT §11)"
  }),
  rtp: Schema.optionalKey(SessionRtp)
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
const StakeLimit = Schema.Finite.annotate({
  description: "A stake limit in major units of the session's currency, e.g. 12.5; stakes are compared with it exactly"
})

/** The merchant's branding and stake settings a game page needs. */
export const PageSettings = Schema.Struct({
  hideBalance: Schema.Boolean.annotate({ description: "Whether the page hides the player's balance" }),
  logo1xUrl: Schema.optionalKey(Schema.String).annotate({ description: "The merchant's logo" }),
  logo2xUrl: Schema.optionalKey(Schema.String).annotate({ description: "The merchant's logo for high-density screens" }),
  cupImageUrl: Schema.optionalKey(Schema.String).annotate({ description: "The merchant's cup image" }),
  fontFamilyUrl: Schema.optionalKey(Schema.String).annotate({ description: "The merchant's web font" }),
  minimumStake: Schema.optionalKey(StakeLimit).annotate({ description: "The smallest stake allowed, when the merchant set one" }),
  maximumStake: Schema.optionalKey(StakeLimit).annotate({ description: "The largest stake allowed, when the merchant set one" })
})
export type PageSettings = typeof PageSettings.Type

/** The answer of `POST /game-api/sessions`. */
export class SessionOpened extends Schema.Class<SessionOpened>("@gateway/domain/SessionOpened")(Schema.Struct({
  sessionToken: Schema.String.annotate({ description: "The session's bearer token: `Authorization: Bearer <sessionToken>` on the game API" }),
  session: GameSession,
  balance: Schema.String.annotate({ description: "The player's balance, a decimal string (the operator's, or the demo balance)" }),
  settings: PageSettings.annotate({ description: "The merchant's branding and stake limits for the page" }),
  fairness: Fairness.annotate({ description: "The committed server seed hash, the client seed and the next nonce (0)" }),
  launch: PageLaunch,
  freeRounds: Schema.Array(SessionFreeRounds).annotate({
    description: "The player's free rounds for the launched game (CONTRACT §13), soonest to expire first; empty in " +
      "demo mode. Each plays with `POST rounds {selection, freeRound: true}`"
  })
}).annotate({
  identifier: "SessionOpened",
  description: "The answer of `POST /game-api/sessions`."
})) {}
