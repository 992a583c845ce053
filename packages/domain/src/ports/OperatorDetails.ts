import type { Effect } from "effect"
import { Context } from "effect"
import type { Merchant } from "../Merchant.ts"
import type { OperatorBadResponse, OperatorTimeout, OperatorUnavailable } from "../Operator.ts"
import type { DetailsRequest, PlayerDetails, PlayerRejected } from "../Player.ts"
import type { ShopDetails, ShopRejected, ShopRequest } from "../Shop.ts"

/**
 * The operator's Details URLs: who a player is and what currency and balance they have (`userDetailsUrl`), and
 * which retail shop a launch is for (`shopDetailsUrl`, CONTRACT §11). Both calls are signed and timed alike.
 */
export class OperatorDetails extends Context.Service<OperatorDetails, {
  fetch(
    merchant: Merchant,
    url: string,
    request: DetailsRequest
  ): Effect.Effect<PlayerDetails, OperatorTimeout | OperatorBadResponse | OperatorUnavailable | PlayerRejected>
  shop(
    merchant: Merchant,
    url: string,
    request: ShopRequest
  ): Effect.Effect<ShopDetails, OperatorTimeout | OperatorBadResponse | OperatorUnavailable | ShopRejected>
}>()("@gateway/domain/ports/OperatorDetails") {}
