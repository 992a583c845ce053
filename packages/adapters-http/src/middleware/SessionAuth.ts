import { Effect, Layer, Redacted } from "effect"
import { hash } from "node:crypto"
import { SessionAuth, SessionToken } from "@gateway/client/api/SessionAuth"
import * as Problem from "@gateway/client/api/Problem"
import { RateLimiter } from "./RateLimiter.ts"

/**
 * The SessionAuth middleware: a present bearer token (the round handler
 * looks it up: 401 SESSION_EXPIRED, charged to the client's address by
 * `guardFailures`). Each token has its own rate-limit bucket, charged before
 * the lookup — a token is a secret, so nobody spends another player's —
 * keyed by a digest, never the token.
 */
export const layer: Layer.Layer<SessionAuth, never, RateLimiter> = Layer.effect(
  SessionAuth,
  Effect.map(RateLimiter, (limiter) =>
    SessionAuth.of({
      sessionBearer: (httpEffect, { credential }) =>
        Redacted.value(credential).trim() === ""
          ? Effect.fail(Problem.make("UNAUTHORIZED", "missing session token (Authorization: Bearer <sessionToken>)"))
          : Effect.andThen(charge(limiter, credential), Effect.provideService(httpEffect, SessionToken, credential))
    })
  )
)

/** Charges a session token's own rate-limit bucket (keyed by a digest of the token, never the token). */
export const charge = (limiter: RateLimiter["Service"], credential: Redacted.Redacted<string>) =>
  limiter.take(`session:${hash("sha256", Redacted.value(credential).trim(), "base64url").slice(0, 22)}`, "session").pipe(
    Effect.mapError(Problem.fromDomain)
  )
