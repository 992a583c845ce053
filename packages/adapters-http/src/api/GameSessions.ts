import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { GameSession, Round } from "@gateway/domain"
import * as Problem from "./Problem.ts"
import { SessionAuth } from "./SessionAuth.ts"

const noStore = { "cache-control": Schema.Literal("no-store") }

/** The selection format of each game, for the OpenAPI description. */
export const selectionFormats = [
  "`odd-even`: `\"odd\"` or `\"even\"`. A number 1..36 is drawn uniformly (crypto RNG); the chosen parity " +
  "pays 1.95× the stake (stake included, rounded down to minor units), else 0. Return to player 97.5 %, " +
  "house edge 2.5 %. `outcome` is the number and its parity, e.g. `\"17 odd\"`.",
  "`under-over`, `color-game`, `lotto`, `mega-ten`, `single`: not playable yet (400 VALIDATION_FAILED naming `gameId`)."
]

/** The game front-end's API: redeem a launch token, then play rounds with the session token. */
export class GameSessionsApi extends HttpApiGroup.make("gameSessions")
  .add(
    HttpApiEndpoint.post("open", "/sessions", {
      payload: GameSession.RedeemRequest,
      success: HttpApiSchema.WithHeaders(GameSession.SessionOpened, noStore).pipe(HttpApiSchema.status(201)),
      error: Problem.responses(
        "UNAUTHORIZED",
        "FORBIDDEN",
        "MERCHANT_NOT_FOUND",
        "TOKEN_ALREADY_USED",
        "PLAYER_REJECTED",
        "DETAILS_URL_NOT_SET",
        "OPERATOR_BAD_RESPONSE",
        "OPERATOR_TIMEOUT"
      )
    })
      .annotate(OpenApi.Summary, "Redeem a launch token and open a game session")
      .annotate(
        OpenApi.Description,
        "A launch token redeems once: a second redemption is 409 TOKEN_ALREADY_USED; an expired or forged " +
          "token is 401 UNAUTHORIZED (`launch link expired` / `invalid launch link`). Real mode reads the " +
          "balance from the operator's Details URL; demo mode starts with a virtual balance of " +
          `${GameSession.demoStartingBalance} and calls no webhook. The sessionToken is shown only here.`
      ),
    HttpApiEndpoint.post("play", "/rounds", {
      payload: Round.PlayRequest,
      success: HttpApiSchema.WithHeaders(Round.RoundResult, noStore),
      error: Problem.responses(
        "UNAUTHORIZED",
        "SESSION_EXPIRED",
        "FORBIDDEN",
        "MERCHANT_NOT_FOUND",
        "BET_REFUSED",
        "INSUFFICIENT_FUNDS",
        "WALLET_UNAVAILABLE",
        "WEBHOOK_URL_NOT_SET"
      )
    })
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Play one round")
      .annotate(
        OpenApi.Description,
        "`stake` is a decimal string of the session's currency (no more fraction digits than it has), greater " +
          "than 0, at most the largest stake the gateway takes — 10^15 − 1 minor units: 9999999999999.99 in a " +
          "two-digit currency, 999999999999999 in JPY — and within the merchant's [minimumStake, maximumStake]; " +
          "anything else is 400 VALIDATION_FAILED naming `stake` (never passed on). Real mode: the stake is " +
          "debited from the operator's wallet first — refused (4xx): 402 BET_REFUSED; no answer, 5xx or time-out: 502 " +
          "WALLET_UNAVAILABLE and a refund is queued. Demo mode: 402 INSUFFICIENT_FUNDS when the virtual " +
          "balance is short. `payout` is what the round returns (0 for a loss) and `balance` the balance after " +
          "it. Selections:\n\n" + selectionFormats.map((s) => `- ${s}`).join("\n")
      )
  )
  .prefix("/api/v1.1/game-api")
  .annotate(OpenApi.Title, "Game sessions")
{}
