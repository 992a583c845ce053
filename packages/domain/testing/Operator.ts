import { Effect, Layer } from "effect"
import { type OperatorBadResponse, type OperatorTimeout, OperatorUnavailable } from "../src/Operator.ts"
import type { DetailsRequest, PlayerDetails, PlayerRejected } from "../src/Player.ts"
import { OperatorDetails } from "../src/ports/OperatorDetails.ts"
import { ShopDetails, type ShopRejected, type ShopRequest } from "../src/Shop.ts"
import { OperatorUrlPolicy } from "../src/ports/OperatorUrlPolicy.ts"
import { WalletClient } from "../src/ports/WalletClient.ts"
import { BetRefused, WalletUnavailable } from "../src/Wallet.ts"

/** What an operator's Details URL answers. */
export type DetailsAnswer = Effect.Effect<PlayerDetails, OperatorTimeout | OperatorBadResponse | PlayerRejected>

/** What an operator's shop Details URL answers. */
export type ShopAnswer = Effect.Effect<ShopDetails, OperatorTimeout | OperatorBadResponse | ShopRejected>

/** A shop Details URL that knows every shop: active, named after its id, in ETB, without stake limits. */
export const activeShop = (request: ShopRequest): ShopAnswer =>
  Effect.succeed(new ShopDetails({ shopId: request.shopId, name: `Shop ${request.shopId}`, currency: "ETB", status: "active" }))

/**
 * An operator whose Details URL gives `answer` and whose shop Details URL gives `shop` ({@link activeShop} by
 * default); every call is recorded in `calls` (and shop calls in `shopCalls`).
 */
export const operatorDetails = (
  calls: Array<DetailsRequest>,
  answer: (request: DetailsRequest) => DetailsAnswer,
  shop: (request: ShopRequest) => ShopAnswer = activeShop,
  shopCalls: Array<ShopRequest> = []
) =>
  Layer.succeed(
    OperatorDetails,
    OperatorDetails.of({
      fetch: (_merchant, _url, request) => Effect.suspend(() => (calls.push(request), answer(request))),
      shop: (_merchant, _url, request) => Effect.suspend(() => (shopCalls.push(request), shop(request)))
    })
  )

/**
 * A wallet that refuses player `broke` (402), is unavailable for player
 * `offline`, answers player `slow` after a second, is behind an open circuit
 * breaker for player `paused` (the debit is not sent), and otherwise answers 90.00.
 */
export const wallet = Layer.succeed(
  WalletClient,
  WalletClient.of({
    debit: (_merchant, debit) =>
      debit.playerId === "broke"
        ? Effect.fail(new BetRefused({ operatorStatus: 402 }))
        : debit.playerId === "offline"
        ? Effect.fail(new WalletUnavailable({ detail: "the operator's wallet did not answer within 5000 ms" }))
        : debit.playerId === "paused"
        ? Effect.fail(new OperatorUnavailable({ retryAfterSeconds: 12 }))
        : debit.playerId === "slow"
        ? Effect.as(Effect.sleep("1 second"), { balance: "90.00" })
        : Effect.succeed({ balance: "90.00" })
  })
)

/** An operator URL policy that allows every URL. */
export const anyOperatorUrl = Layer.succeed(OperatorUrlPolicy, OperatorUrlPolicy.of({ check: () => Effect.void, checkPageUrl: () => Effect.void }))
