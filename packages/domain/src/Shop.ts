import { Schema } from "effect"
import type { LaunchMode } from "./LaunchToken.ts"
import { isStorableText } from "./Validation.ts"

/** A retail shop's id in the operator's system, as a launch gives it (CONTRACT §11): 1..64 characters. */
// The storable-text filter comes first: a description lands on the last check, and that one has no JSON Schema.
export const ShopId = Schema.String.check(isStorableText, Schema.isNonEmpty(), Schema.isMaxLength(64)).annotate({
  description: "The retail shop (terminal or cashier desk) the game is played at, 1..64 characters: the gateway asks " +
    "the merchant's `shopDetailsUrl` about it, and its rounds, wallet messages and reports carry it (CONTRACT §11)",
  examples: ["shop-addis-01"]
})

/** What the gateway asks the operator's shop Details URL (`shopDetailsUrl`) at a real-mode launch with a `shopId`. */
export interface ShopRequest {
  readonly shopId: string
  readonly sessionId: string
  readonly gameId: string
  readonly mode: LaunchMode
}

/** A stake limit of a shop: a non-negative decimal string in major units of the shop's currency. */
const ShopStake = Schema.String.check(
  Schema.isPattern(/^(0|[1-9][0-9]{0,17})(\.[0-9]{1,8})?$/u, { message: "must be a decimal string like \"1.00\"" })
)

/** The operator's answer about a shop. */
export class ShopDetails extends Schema.Class<ShopDetails>("@gateway/domain/ShopDetails")(Schema.Struct({
  shopId: Schema.String.annotate({ description: "The shop's id: the one the gateway asked about" }),
  name: Schema.String.check(isStorableText, Schema.isNonEmpty(), Schema.isMaxLength(128)).annotate({
    description: "The shop's name, shown on the cashier's page (1..128 characters)"
  }),
  currency: Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/u, { message: "must be an ISO 4217 code" })).annotate({
    description: "The shop's currency (ISO 4217): must be the merchant's (else 422 CURRENCY_MISMATCH)"
  }),
  status: Schema.Literals(["active", "blocked"]).annotate({ description: "`blocked` refuses the launch (422 SHOP_REJECTED)" }),
  minimumStake: Schema.optionalKey(ShopStake).annotate({
    description: "The shop's smallest stake, a decimal string in major units; the larger of it and the merchant's applies"
  }),
  maximumStake: Schema.optionalKey(ShopStake).annotate({
    description: "The shop's largest stake, a decimal string in major units; the smaller of it and the merchant's applies"
  })
}).annotate({
  identifier: "ShopDetails",
  description: "The operator's answer about a retail shop (CONTRACT §11)."
})) {}

/** The shop a game session is played at, and the stake limits it adds to the merchant's. */
export const SessionShop = Schema.Struct({
  shopId: Schema.String.annotate({ description: "The shop's id (the launch's `shopId`)" }),
  name: Schema.String.annotate({ description: "The shop's name, from the operator's `shopDetailsUrl`" }),
  minimumStake: Schema.optionalKey(Schema.String).annotate({ description: "The shop's smallest stake, a decimal string, when it set one" }),
  maximumStake: Schema.optionalKey(Schema.String).annotate({ description: "The shop's largest stake, a decimal string, when it set one" })
}).annotate({
  identifier: "SessionShop",
  description: "The retail shop a session is played at (CONTRACT §11)."
})
export type SessionShop = typeof SessionShop.Type

/** The operator's shop Details URL said the shop is unknown or blocked. */
export class ShopRejected extends Schema.TaggedError<ShopRejected>()("ShopRejected", {
  detail: Schema.String
}) {
  override get message(): string {
    return this.detail
  }
}

/** A launch with a `shopId` for a merchant that has not configured `shopDetailsUrl`. */
export class ShopDetailsUrlNotSet extends Schema.TaggedError<ShopDetailsUrlNotSet>()("ShopDetailsUrlNotSet", {}) {
  override get message(): string {
    return "the merchant has no shopDetailsUrl; set it in MerchantSettings before launches with a shopId"
  }
}
