import { Schema } from "effect"
import type { CurrencyCode } from "./Currency.ts"
import type { LaunchMode } from "./LaunchToken.ts"

/** What the gateway asks the operator's Details URL at a real-mode launch. */
export interface DetailsRequest {
  readonly playerId: string
  readonly sessionId: string
  readonly gameId: string
  readonly mode: LaunchMode
  readonly currency?: CurrencyCode
}

/** A decimal string, possibly negative: `"100.00"`, `"-5"`. */
export const DecimalString = Schema.String.check(
  Schema.isPattern(/^-?(0|[1-9][0-9]{0,17})(\.[0-9]{1,8})?$/u, { message: "must be a decimal string like \"100.00\"" })
)

/** The operator's answer about a player. */
export class PlayerDetails extends Schema.Class<PlayerDetails>("@gateway/domain/PlayerDetails")(Schema.Struct({
  playerId: Schema.String.annotate({ description: "The player's id: the one the gateway asked about" }),
  currency: Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/u, { message: "must be an ISO 4217 code" })).annotate({ description: "The player's currency (ISO 4217): must be the merchant's" }),
  balance: DecimalString.annotate({ description: "The player's balance, a decimal string in major units, e.g. \"250.00\"" }),
  status: Schema.optionalKey(Schema.Literals(["active", "blocked"])).annotate({ description: "`blocked` refuses the launch (422 PLAYER_REJECTED); default `active`" }),
  nickname: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(128))).annotate({ description: "A name the game page may show" }),
  country: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2))).annotate({ description: "The player's country (ISO 3166-1 alpha-2)" })
}).annotate({
  identifier: "PlayerDetails",
  description: "The operator's answer about a player."
})) {}

/** The operator said the player is unknown or blocked. */
export class PlayerRejected extends Schema.TaggedError<PlayerRejected>()("PlayerRejected", {
  detail: Schema.String
}) {
  override get message(): string {
    return this.detail
  }
}

/** A real-mode launch for a merchant that has not configured `userDetailsUrl`. */
export class DetailsUrlNotSet extends Schema.TaggedError<DetailsUrlNotSet>()("DetailsUrlNotSet", {}) {
  override get message(): string {
    return "the merchant has no userDetailsUrl; set it in MerchantSettings before real-mode launches"
  }
}
