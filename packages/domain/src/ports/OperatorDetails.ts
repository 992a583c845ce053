import type { Effect } from "effect"
import { Context } from "effect"
import type { Merchant } from "../Merchant.ts"
import type { OperatorBadResponse, OperatorTimeout, OperatorUnavailable } from "../Operator.ts"
import type { DetailsRequest, PlayerDetails, PlayerRejected } from "../Player.ts"

/** The operator's Details URL: who a player is and what currency and balance they have. */
export class OperatorDetails extends Context.Service<OperatorDetails, {
  fetch(
    merchant: Merchant,
    url: string,
    request: DetailsRequest
  ): Effect.Effect<PlayerDetails, OperatorTimeout | OperatorBadResponse | OperatorUnavailable | PlayerRejected>
}>()("@gateway/domain/ports/OperatorDetails") {}
