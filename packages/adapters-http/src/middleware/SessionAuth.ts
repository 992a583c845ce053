import { Effect, Layer, Redacted } from "effect"
import { SessionAuth, SessionToken } from "../api/SessionAuth.ts"
import * as Problem from "../api/Problem.ts"

/** The SessionAuth middleware: a present bearer token; the round use case looks it up (401 SESSION_EXPIRED). */
export const layer: Layer.Layer<SessionAuth> = Layer.succeed(
  SessionAuth,
  SessionAuth.of({
    sessionBearer: (httpEffect, { credential }) =>
      Redacted.value(credential).trim() === ""
        ? Effect.fail(Problem.make("UNAUTHORIZED", "missing session token (Authorization: Bearer <sessionToken>)"))
        : Effect.provideService(httpEffect, SessionToken, credential)
  })
)
