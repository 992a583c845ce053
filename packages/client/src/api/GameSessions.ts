import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Autoplay, Fairness, GameSession, Lobby, Round } from "@gateway/domain"
import { GamesQuery } from "./Games.ts"
import * as Problem from "./Problem.ts"
import { SessionAuth } from "./SessionAuth.ts"

const noStore = { "cache-control": Schema.Literal("no-store") }

/** The cookie binding a redeemed launch link to its session, for `POST /sessions/resume` (CONTRACT §6). */
export const resumeCookie = "gateway_resume"

/** Where the resume cookie is sent: the resume call only. */
export const resumePath = "/api/v1.1/game-api/sessions/resume"

/** `page` and `limit` of the game API's lists, as in every list (CONTRACT §1). */
const PageQuery = { page: GamesQuery.page, limit: GamesQuery.limit }

/** What a launch link's redemption (and its resumption) may answer before the operator is asked. */
const redemption = ["UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND", "TOKEN_ALREADY_USED"] as const

/** The play operation with its `selection` shown as any of the built-in games' selection schemas. */
const withSelectionSchemas = (op: Record<string, any>): Record<string, any> => {
  const body = op["requestBody"]?.content?.["application/json"]?.schema
  if (body?.properties?.selection === undefined) return op
  const selection = { anyOf: Round.selectionSchemas, description: Round.selectionDescription }
  return {
    ...op,
    requestBody: {
      ...op["requestBody"],
      content: {
        "application/json": { ...op["requestBody"].content["application/json"], schema: { ...body, properties: { ...body.properties, selection } } }
      }
    }
  }
}

const RoundIdParam = Schema.String.check(Schema.isMaxLength(64))
const GameIdParam = Schema.String.check(Schema.isMaxLength(64))

/** The game front-end's API: redeem a launch token, then play rounds with the session token. */
export class GameSessionsApi extends HttpApiGroup.make("gameSessions")
  .add(
    HttpApiEndpoint.post("open", "/sessions", {
      payload: GameSession.RedeemRequest,
      success: HttpApiSchema.WithHeaders(GameSession.SessionOpened, noStore).pipe(HttpApiSchema.status(201)),
      error: Problem.responses(...redemption, "GAME_RETIRED", ...Problem.launchRuleProblems)
    })
      .annotate(OpenApi.Summary, "Redeem a launch token and open a game session")
      .annotate(
        OpenApi.Description,
        "A launch token redeems once: a second redemption is 409 TOKEN_ALREADY_USED; an expired or forged " +
          "token is 401 UNAUTHORIZED (`launch link expired` / `invalid launch link`). A used, expired or forged " +
          "link calls nothing: the token's single use is claimed before the operator is asked, so only the first " +
          "redemption reaches the Details URL (a redemption while another of the same link is being checked is 409 " +
          "too). Real mode re-applies the " +
          "launch rules with the operator's Details URL, which also gives the balance: a player it now reports " +
          "blocked is 422 PLAYER_REJECTED, one in another currency than the launch's 422 CURRENCY_MISMATCH, an " +
          "operator that fails 502/504, or whose circuit breaker is open 503 OPERATOR_UNAVAILABLE (with `retry-after`) — no session is opened and the claim is given back, so the link still " +
          "redeems while it lives. Demo mode starts with a virtual balance of " +
          `${GameSession.demoStartingBalance} and calls no webhook. A link of a game retired since it was issued is 410 ` +
          "GAME_RETIRED (before the operator is asked). The sessionToken is shown only here. " +
          "`fairness` is the session's first commitment: the SHA-256 of its secret server seed, a random client " +
          "seed and nonce 0 (docs/games.md). A retail shop's launch (CONTRACT §11) asks the `shopDetailsUrl` " +
          "again, as a launch rule: a shop it now reports blocked (or a 4xx) is 422 SHOP_REJECTED, one in another " +
          "currency 422 CURRENCY_MISMATCH, no `shopDetailsUrl` any more 422 SHOP_DETAILS_URL_NOT_SET (the claim " +
          "given back, as for the player). The shop's name and stake limits are those of the launch, in the " +
          "token; the session gives them back as `session.shop` and `launch.shop` (the page is then the " +
          "cashier's), with `settings` holding the merchant's stake limits narrowed by the shop's. The answer sets " +
          "the resume cookie `" + resumeCookie + "` that `POST /sessions/resume` reads (a framing page that " +
          "reloads resumes the session)."
      ),
    HttpApiEndpoint.post("resume", "/sessions/resume", {
      payload: GameSession.RedeemRequest,
      success: HttpApiSchema.WithHeaders(GameSession.SessionOpened, noStore),
      error: Problem.responses(...redemption, "SESSION_ENDED", ...Problem.launchRuleProblems)
    })
      .annotate(OpenApi.Summary, "Resume the session a used launch link opened, in the browser that opened it")
      .annotate(
        OpenApi.Description,
        `For the game page when its launch link answers 409 TOKEN_ALREADY_USED (or 401 expired): a casino's ` +
          "page that reloads gives its iframe the same, used link, and a framed page may have no storage to keep " +
          "its session in (CONTRACT §6). `POST /sessions` sets the cookie `" + resumeCookie + "` (HttpOnly, " +
          "Secure, SameSite=None, Partitioned, `Path=/api/v1.1/game-api/sessions/resume`, 12 hours) binding that " +
          "link to its session; this call, sent with that cookie and the same launch token, answers the session " +
          "as `POST /sessions` does, as it is now: the balance (real money: the operator's Details URL again; " +
          "demo: the virtual balance), the current fairness commitment (its nonce is the next round's) and the " +
          "free rounds left, and renews the cookie. The token's signature, issuer and audience must verify (401 " +
          "`invalid launch link`), but an expired token is accepted. Without the cookie, with a cookie of another " +
          "link, or when the session has expired, the answer is the used link's 409 TOKEN_ALREADY_USED: a link " +
          "copied elsewhere resumes nothing. A session the operator ended (`POST operator-api/sessions/terminate`) " +
          "is 401 SESSION_ENDED, so the page can say so."
      ),
    HttpApiEndpoint.post("play", "/rounds", {
      payload: Round.PlayRequest,
      success: HttpApiSchema.WithHeaders(Round.RoundResult, noStore),
      error: Problem.responses(
        "UNAUTHORIZED",
        "SESSION_EXPIRED",
        "SESSION_ENDED",
        "AUTOPLAY_LIMIT_REACHED",
        "FORBIDDEN",
        "MERCHANT_NOT_FOUND",
        "GAME_NOT_FOUND",
        "GAME_RETIRED",
        "BET_REFUSED",
        "INSUFFICIENT_FUNDS",
        "WALLET_UNAVAILABLE",
        "WEBHOOK_URL_NOT_SET",
        "OPERATOR_UNAVAILABLE",
        "NO_FREE_ROUNDS"
      )
    })
      .middleware(SessionAuth)
      .annotate(OpenApi.Transform, withSelectionSchemas)
      .annotate(OpenApi.Summary, "Play one round")
      .annotate(
        OpenApi.Description,
        "`stake` is a decimal string of the session's currency (no more fraction digits than it has), greater " +
          "than 0, at most the largest stake the gateway takes — 10^15 − 1 minor units: 9999999999999.99 in a " +
          "two-digit currency, 999999999999999 in JPY — and within the merchant's [minimumStake, maximumStake]; " +
          "anything else is 400 VALIDATION_FAILED naming `stake` (never passed on). Real mode: the stake is " +
          "debited from the operator's wallet first — refused (4xx): 402 BET_REFUSED; no answer, 5xx or time-out: 502 " +
          "WALLET_UNAVAILABLE and a refund is queued; an operator that keeps failing (its circuit breaker is open, " +
          "docs/operations.md): 503 OPERATOR_UNAVAILABLE with `retry-after`, no debit sent, nothing to refund. Demo mode: 402 INSUFFICIENT_FUNDS when the virtual " +
          "balance is short. `payout` is what the round returns (0 for a loss) and `balance` the balance after " +
          "it. `selection` is the game's JSON value (its rules: `GET games/{gameId}/rules`; anything else is 400 " +
          "naming `selection`). `gameId` picks another built-in game in a lobby session (without the lobby: 403; a " +
          "game not in the catalogue: 404). A game retired from the catalogue (`DELETE operator-api/games/{id}`) is " +
          "410 GAME_RETIRED for every session, opened before the retirement or after, and moves no money (no debit " +
          "is sent). The draw comes from the session's committed seeds: `fairness` is the server seed " +
          "hash, client seed and nonce this round used; the next round uses the next nonce (a refused bet uses " +
          "one too). `autoplay: true` plays a round of the autoplay started with `POST autoplay`: once it has " +
          "played its rounds or its net loss reached its limit (or none was started) it is 409 " +
          "AUTOPLAY_LIMIT_REACHED and moves no money. A session the operator ended is 401 SESSION_ENDED.\n\n" +
          "Free rounds (CONTRACT §13): `{selection, freeRound: true}` without `stake` plays one of the " +
          "player's free rounds of the game (real mode; `freeRounds` of the session's answer lists them) at its grant's " +
          "stake, taken from the grant that expires first: none left (or a demo session) is 409 NO_FREE_ROUNDS, a " +
          "`stake` with it 400. No debit is sent; a win is a `transaction.credit` carrying `data.freeRound` and no " +
          "`refTransactionId`, a loss sends nothing. The answer has `freeRound` (the grant and what it has left) and " +
          "no `balance` (the operator's balance is not asked)."
      ),
    HttpApiEndpoint.post("autoplay", "/autoplay", {
      payload: Autoplay.AutoplayRequest,
      success: HttpApiSchema.WithHeaders(Autoplay.AutoplayStarted, noStore),
      error: Problem.responses("UNAUTHORIZED", "SESSION_EXPIRED", "SESSION_ENDED")
    })
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Start autoplay: a number of rounds and a loss limit")
      .annotate(
        OpenApi.Description,
        "Autoplay (CONTRACT §12) needs both limits, and the server keeps them: the session's rounds sent with " +
          "`autoplay: true` are played until `rounds` of them have been played or their net loss (stakes less " +
          "payouts, counted from this call) reaches `lossLimit`; the next is 409 AUTOPLAY_LIMIT_REACHED. A new " +
          "call replaces the autoplay in force. `lossLimit` is a decimal string of the session's currency, " +
          "greater than 0 (else 400 naming `lossLimit`)."
      ),
    HttpApiEndpoint.get("lobby", "/games", {
      query: PageQuery,
      success: HttpApiSchema.WithHeaders(Lobby.LobbyList, noStore),
      error: Problem.responses("UNAUTHORIZED", "SESSION_EXPIRED", "SESSION_ENDED", "MERCHANT_NOT_FOUND")
    })
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "The lobby: the built-in games this session may play")
      .annotate(
        OpenApi.Description,
        "The built-in games still listed in the catalogue, with their absolute image URLs and the RTP that " +
          "applies to this merchant. A session launched without the lobby plays only its own game."
      ),
    HttpApiEndpoint.get("rules", "/games/:gameId/rules", {
      params: { gameId: GameIdParam },
      success: Lobby.GameRulesView,
      error: Problem.responses("UNAUTHORIZED", "SESSION_EXPIRED", "SESSION_ENDED", "GAME_NOT_FOUND", "MERCHANT_NOT_FOUND")
    })
      .annotate(OpenApi.Summary, "A built-in game's rules, pay table and RTP")
      .annotate(
        OpenApi.Description,
        "No credentials needed. With `Authorization: Bearer <sessionToken>` the RTP and pay table are the " +
          "session's merchant's (`<game>GameProfit`), else the default. `selectionSchema` is the JSON Schema " +
          "of `selection` in `POST rounds`; every example is a valid selection."
      ),
    HttpApiEndpoint.get("rounds", "/rounds", {
      query: PageQuery,
      success: HttpApiSchema.WithHeaders(Round.RoundList, noStore),
      error: Problem.responses("UNAUTHORIZED", "SESSION_EXPIRED", "SESSION_ENDED")
    })
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "This session's rounds, newest first")
      .annotate(
        OpenApi.Description,
        "Also with the token of a session that has expired (one the operator ended: 401 SESSION_ENDED). Each round carries its fairness, with `serverSeed` " +
          "once revealed (rotation or the end of the session)."
      ),
    HttpApiEndpoint.get("recall", "/recall", {
      query: {
        gameId: Schema.optionalKey(GameIdParam.check(Schema.isNonEmpty()).annotate({
          description: "the game whose rounds to show; default the session's own game"
        }))
      },
      success: HttpApiSchema.WithHeaders(Round.RoundList, noStore),
      error: Problem.responses("UNAUTHORIZED", "SESSION_EXPIRED", "SESSION_ENDED")
    })
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Game recall: the player's last 10 rounds of a game, from every session")
      .annotate(
        OpenApi.Description,
        "The session's player's last 10 rounds of the game, in the session's mode at its merchant, newest first, " +
          "from this session and earlier ones (its 50 most recent sessions), each with its selection, outcome, " +
          "payout and fairness (`serverSeed` once revealed), as GLI-19 and UKGC RTS 7 require (CONTRACT §6). One page."
      ),
    HttpApiEndpoint.get("round", "/rounds/:roundId", {
      params: { roundId: RoundIdParam },
      success: HttpApiSchema.WithHeaders(Round.RoundView, noStore),
      error: Problem.responses("UNAUTHORIZED", "SESSION_EXPIRED", "SESSION_ENDED", "ROUND_NOT_FOUND")
    })
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "One round of this session, to verify it")
      .annotate(
        OpenApi.Description,
        "A round of another session is 404 ROUND_NOT_FOUND. `fairness.serverSeed` is present once the seed " +
          "has been revealed (`PUT fairness`, or the session has ended): then HMAC-SHA256(serverSeed, " +
          "`<clientSeed>:<nonce>`) gives the round's draws as docs/games.md describes."
      ),
    HttpApiEndpoint.put("fairness", "/fairness", {
      payload: Fairness.RotateRequest,
      success: HttpApiSchema.WithHeaders(Fairness.SeedRotated, noStore),
      error: Problem.responses("UNAUTHORIZED", "SESSION_EXPIRED", "SESSION_ENDED")
    })
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Set the client seed: reveal the server seed and commit a new one")
      .annotate(
        OpenApi.Description,
        "Reveals the current server seed (`previous`, with the client seed it served and how many nonces it " +
          "gave) and commits a new one with the given client seed at nonce 0 (`current`)."
      )
  )
  .prefix("/api/v1.1/game-api")
  .annotate(OpenApi.Title, "Game sessions")
  .annotate(
    OpenApi.Description,
    "The game front-end's API: redeem a launch token once for a session token (`POST /sessions`), then " +
      "play rounds and read them with `Authorization: Bearer <sessionToken>`. A real-money round debits and credits " +
      "the operator's wallet through signed webhooks."
  )
{}
