import { Schema } from "effect"

/** The most rounds one autoplay may play. */
export const maxAutoplayRounds = 1000

/** The body of `POST /game-api/autoplay` (CONTRACT §12): autoplay needs a number of rounds and a loss limit. */
export const AutoplayRequest = Schema.Struct({
  rounds: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: maxAutoplayRounds })).annotateKey({
    description: `How many rounds autoplay may play (1..${maxAutoplayRounds})`
  }),
  lossLimit: Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(32)).annotateKey({
    description: "The net loss (stakes less payouts of its rounds) at which autoplay stops: a decimal string of the " +
      "session's currency, greater than 0, with at most its minor digits"
  })
}).annotate({
  identifier: "AutoplayRequest",
  description: "Starts autoplay: its rounds (`POST rounds` with `autoplay: true`) stop at either limit."
})
export type AutoplayRequest = typeof AutoplayRequest.Type

/** The answer of `POST /game-api/autoplay`. */
export const AutoplayStarted = Schema.Struct({
  rounds: Schema.Int.annotateKey({ description: "The autoplay rounds left to play" }),
  lossLimit: Schema.String.annotateKey({ description: "The net loss at which autoplay stops, a decimal string" })
}).annotate({
  identifier: "AutoplayStarted",
  description: "The autoplay now in force for the session (it replaces any earlier one)."
})
export type AutoplayStarted = typeof AutoplayStarted.Type

/** An autoplay round asked for once the autoplay's rounds are played or its loss limit is reached (or none started). */
export class AutoplayLimitReached extends Schema.TaggedError<AutoplayLimitReached>()("AutoplayLimitReached", {}) {
  override get message(): string {
    return "autoplay has played its rounds or reached its loss limit; start autoplay again to go on"
  }
}
