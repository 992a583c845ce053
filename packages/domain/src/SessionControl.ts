import { Schema } from "effect"
import { isStorableText } from "./Validation.ts"

const Ref = Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(128), isStorableText)

/** The body of `POST /operator-api/sessions/terminate` (CONTRACT §12). */
export const TerminateRequest = Schema.Struct({
  playerId: Ref.annotateKey({
    description: "The player whose open game sessions end: the `playerId` of the launches (1..128 characters)"
  }),
  sessionId: Schema.optionalKey(Ref).annotateKey({
    description: "Only the game sessions launched with this operator `sessionId` (1..128 characters); absent: all of the player's"
  })
}).annotate({
  identifier: "TerminateSessions",
  description: "Which of the merchant's game sessions to end: every open one of a player, or those of one operator session."
})
export type TerminateRequest = typeof TerminateRequest.Type

/** The answer of `POST /operator-api/sessions/terminate`. */
export const TerminateResult = Schema.Struct({
  terminated: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
    description: "How many open game sessions were ended now (0 when the player had none open)"
  })
}).annotate({
  identifier: "SessionsTerminated",
  description: "How many game sessions the request ended."
})
export type TerminateResult = typeof TerminateResult.Type

/** A game session the operator ended (self-exclusion, fraud): every later call with its token is refused. */
export class SessionEnded extends Schema.TaggedError<SessionEnded>()("SessionEnded", {}) {
  override get message(): string {
    return "the casino ended this game session; open the game again from the casino's site"
  }
}
