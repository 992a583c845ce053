import { Effect, Layer, Redacted } from "effect"
import { hash } from "node:crypto"
import { SessionAuth, SessionToken } from "../api/SessionAuth.ts"
import * as Problem from "../api/Problem.ts"
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
      sessionBearer: (httpEffect, { credential }) => {
        const token = Redacted.value(credential).trim()
        return token === ""
          ? Effect.fail(Problem.make("UNAUTHORIZED", "missing session token (Authorization: Bearer <sessionToken>)"))
          : limiter.take(`session:${hash("sha256", token, "base64url").slice(0, 22)}`, "session").pipe(
            Effect.mapError(Problem.fromDomain),
            Effect.andThen(Effect.provideService(httpEffect, SessionToken, credential))
          )
      }
    })
  )
)
