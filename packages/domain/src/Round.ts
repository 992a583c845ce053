import { Schema } from "effect"

/** The body of `POST /game-api/rounds`: a stake as a decimal string and the game's selection. */
export const PlayRequest = Schema.Struct({
  stake: Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(32)),
  selection: Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(64))
})
export type PlayRequest = typeof PlayRequest.Type

/** What a game engine decided: an outcome to show and the payout in minor units (0 for a loss). */
export interface Outcome {
  readonly outcome: string
  readonly payout: bigint
}

/** The answer of a round. Amounts are decimal strings of the session's currency. */
export class RoundResult extends Schema.Class<RoundResult>("@gateway/domain/RoundResult")({
  roundId: Schema.String,
  outcome: Schema.String,
  payout: Schema.String,
  balance: Schema.String
}) {}
