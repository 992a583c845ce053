import { Context, type Redacted } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import * as Problem from "./Problem.ts"

/** The raw session token of the current request (`Authorization: Bearer <sessionToken>`), not yet looked up. */
export class SessionToken extends Context.Service<SessionToken, Redacted.Redacted<string>>()(
  "@gateway/client/api/SessionAuth/SessionToken"
) {}

const sessionBearer = HttpApiSecurity.bearer.pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "The opaque `sessionToken` of `POST /game-api/sessions`. Missing: 401 UNAUTHORIZED; unknown or idle " +
      "past its expiry: 401 SESSION_EXPIRED; ended by the operator (`POST operator-api/sessions/terminate`): " +
      "401 SESSION_ENDED."
  )
)

/** Game endpoints: a session token, looked up by the round use case itself. */
export class SessionAuth extends HttpApiMiddleware.Service<SessionAuth, { provides: SessionToken }>()(
  "@gateway/client/api/SessionAuth/SessionAuth",
  { security: { sessionBearer }, error: [Problem.response(401, ["UNAUTHORIZED", "SESSION_EXPIRED", "SESSION_ENDED"]), Problem.response(429, ["RATE_LIMITED"])] }
) {}
