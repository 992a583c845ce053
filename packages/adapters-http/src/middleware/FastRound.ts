import { Context, Effect, Redacted, Schema } from "effect"
import { makePlayRound } from "@gateway/domain"
import { PlayRequest, type RoundResult } from "@gateway/domain/Round"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { GameSessionsApi } from "@gateway/client/api/GameSessions"
import * as Problem from "@gateway/client/api/Problem"
import * as SessionAuth from "./SessionAuth.ts"
import { tagRoute } from "./KeptRoute.ts"
import { guardFailures, RateLimiter } from "./RateLimiter.ts"

const path = GameSessionsApi.endpoints.play.path
/** Decoded as the API decodes payloads (`HttpApi.PayloadParseOptions`): an unknown field is refused, by the router's 400. */
const decodePlay = Schema.decodeUnknownExit(PlayRequest, { onExcessProperty: "error" })
/** The credential of `Authorization: Bearer <credential>` as the API's bearer security reads it (scheme in any case). */
const bearerOf = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined || authorization.charCodeAt(6) !== 32 || authorization.slice(0, 6).toLowerCase() !== "bearer") {
    return undefined
  }
  const credential = authorization.slice(7).replace(/^ +/, "")
  return credential.trim() === "" ? undefined : credential
}

/**
 * The round's answer as the endpoint's schema encodes it, written directly: every field of a `RoundResult` is
 * already its own encoding (strings, the outcome's JSON, the fairness numbers), in the schema's order.
 */
const answer = (result: RoundResult) =>
  HttpServerResponse.text(
    JSON.stringify({
      roundId: result.roundId,
      gameId: result.gameId,
      outcome: result.outcome,
      payout: result.payout,
      balance: result.balance,
      fairness: {
        serverSeedHash: result.fairness.serverSeedHash,
        clientSeed: result.fairness.clientSeed,
        nonce: result.fairness.nonce
      },
      freeRound: result.freeRound === undefined ? undefined : {
        grantId: result.freeRound.grantId,
        campaignId: result.freeRound.campaignId,
        remaining: result.freeRound.remaining
      }
    }),
    { contentType: "application/json" }
  ).pipe(HttpServerResponse.setHeader("cache-control", "no-store"))

/**
 * Answers `POST /api/v1.1/game-api/rounds` — every bet of every player —
 * before routing: when it carries a bearer token and a JSON body
 * (`content-type: application/json`) that decodes as the endpoint's payload,
 * the token's rate limit is charged as SessionAuth charges it and the round
 * runs exactly as the endpoint's handler runs it (`playRound`, failures
 * charged to the client's address), without the router and the API's
 * middleware around it; its errors are the same problems and its answer the
 * same JSON. Anything else (no token, another content type, a body that does
 * not decode) goes on to the router, where the API answers it as always,
 * nothing charged here.
 */
export const make = Effect.map(
  Effect.all([
    makePlayRound,
    RateLimiter
  ]),
  ([playRound, limiter]) =>
  <E, R>(
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E | Problem.Problem, R | HttpServerRequest.HttpServerRequest> =>
    Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      if (request.method !== "POST" || request.url !== path) return httpEffect
      if (!request.headers["content-type"]?.toLowerCase().startsWith("application/json")) return httpEffect
      const token = bearerOf(request.headers["authorization"])
      if (token === undefined) return httpEffect
      type Answer = Effect.Effect<HttpServerResponse.HttpServerResponse, E | Problem.Problem, R | HttpServerRequest.HttpServerRequest>
      return Effect.matchEffect(request.json, {
        onFailure: (): Answer => httpEffect,
        onSuccess: (body): Answer => {
          const payload = decodePlay(body)
          if (payload._tag === "Failure") return httpEffect
          tagRoute(fiber, path)
          const play = playRound(token, payload.value).pipe(Effect.mapError(Problem.fromDomain), guardFailures(limiter))
          return SessionAuth.charge(limiter, Redacted.make(token)).pipe(Effect.andThen(play), Effect.map(answer))
        }
      })
    })
)
