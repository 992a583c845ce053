import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { SessionControl } from "@gateway/domain"
import * as Problem from "./Problem.ts"
import { KeyOperation, OperatorAuth } from "./Security.ts"

/** Session control (CONTRACT §12): an operator ends its players' game sessions with its API key. */
export class SessionControlApi extends HttpApiGroup.make("sessionControl")
  .add(
    HttpApiEndpoint.post("terminate", "/sessions/terminate", {
      payload: SessionControl.TerminateRequest,
      success: SessionControl.TerminateResult,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN")
    })
      .annotate(KeyOperation, "write")
      .annotate(OpenApi.Summary, "End a player's open game sessions at once")
      .annotate(
        OpenApi.Description,
        "For self-exclusion or fraud: every open game session of this merchant's player `playerId` ends now — " +
          "only those launched with the operator `sessionId` when it is given. From then on every game-api call " +
          "with their session tokens (rounds, the lobby, round history, fairness) is 401 SESSION_ENDED on every " +
          "instance of the gateway, and the player's page says the casino ended the session; a round already " +
          "begun (its debit sent) finishes and settles as usual. `terminated` counts the sessions ended by this " +
          "call: sessions already ended or expired are not counted, so a repeated call answers 0. Real-money and " +
          "demo sessions alike. An `sv_test` key changes nothing: 403 FORBIDDEN; use an `sv_live` key."
      )
  )
  .middleware(OperatorAuth)
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Session control")
  .annotate(
    OpenApi.Description,
    "Player protection for operators (`sv-api-key`, live keys only): end a player's game sessions at once."
  )
{}
