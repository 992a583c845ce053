import { Schema } from "effect"
import { PageMeta } from "./Paging.ts"
import { isStorableText, UtcTimestamp } from "./Validation.ts"

/** The most rounds one grant gives. */
export const maxRounds = 1000

/** How far ahead a grant may expire, in days. */
export const maxLifetimeDays = 365

const Text = (description: string, max: number) =>
  Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(max), isStorableText).annotateKey({ description })

/** The body of `POST /operator-api/free-rounds` (CONTRACT §13). */
export const GrantRequest = Schema.Struct({
  campaignId: Text("The operator's campaign, 1 to 64 characters; sent back in each free round's credit", 64),
  playerId: Text("The player's id in the operator's system, 1 to 128 characters", 128),
  gameId: Text("The built-in game the rounds are played in", 64),
  rounds: Schema.Int.annotate({ message: "must be an integer" }).check(
    Schema.isGreaterThanOrEqualTo(1, { message: "must be ≥ 1" }),
    Schema.isLessThanOrEqualTo(maxRounds, { message: `must be ≤ ${maxRounds}` })
  ).annotate({ description: `How many free rounds, 1 to ${maxRounds}` }),
  stake: Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(32)).annotate({
    description: "The stake of each free round, a decimal string of the merchant's currency within its " +
      "[minimumStake, maximumStake]"
  }),
  expiresAt: Schema.String.check(Schema.isMaxLength(40)).annotateKey({
    description: `When the rounds left lapse: an ISO 8601 date-time with offset, in the future and at most ${maxLifetimeDays} days ahead`
  })
}).annotate({
  identifier: "FreeRoundGrantRequest",
  description: "A grant of free rounds to one player in one game.",
  examples: [{
    campaignId: "welcome-2026",
    playerId: "player-1001",
    gameId: "odd-even",
    rounds: 10,
    stake: "1.00",
    expiresAt: "2026-12-31T23:59:59Z"
  }]
})
export type GrantRequest = typeof GrantRequest.Type

/** Where a grant is: rounds left to play, all played, cancelled by the operator, or lapsed. */
export const GrantStatus = Schema.Literals(["active", "used", "cancelled", "expired"])
export type GrantStatus = typeof GrantStatus.Type

/** A grant of free rounds, as the operator sees it. Amounts are decimal strings of the merchant's currency. */
export class FreeRoundGrant extends Schema.Class<FreeRoundGrant>("@gateway/domain/FreeRoundGrant")(Schema.Struct({
  id: Schema.String.annotate({ description: "The grant's id (`DELETE free-rounds/{id}` cancels what is left)" }),
  campaignId: Schema.String.annotate({ description: "The operator's campaign" }),
  playerId: Schema.String.annotate({ description: "The player" }),
  gameId: Schema.String.annotate({ description: "The game the rounds are played in" }),
  rounds: Schema.Int.annotate({ description: "How many rounds were granted" }),
  remaining: Schema.Int.annotate({ description: "How many are left to play (0 once used, cancelled or expired)" }),
  stake: Schema.String.annotate({ description: "The stake of each round, a decimal string" }),
  currency: Schema.String.annotate({ description: "The merchant's currency (ISO 4217)" }),
  status: GrantStatus.annotate({ description: "`active`, `used` (all played), `cancelled` or `expired`" }),
  expiresAt: UtcTimestamp("When the rounds left lapse (ISO 8601, UTC)"),
  createdAt: UtcTimestamp("When the grant was made (ISO 8601, UTC)")
}).annotate({
  identifier: "FreeRoundGrant",
  description: "A grant of free rounds to one player in one game."
})) {}

/** The answer of `GET /operator-api/free-rounds`: a page of a player's grants, newest first. */
export class GrantList extends Schema.Class<GrantList>("@gateway/domain/GrantList")(Schema.Struct({
  data: Schema.Array(FreeRoundGrant).annotate({ description: "The grants of this page, newest first" }),
  meta: PageMeta
}).annotate({
  identifier: "GrantList",
  description: "A page of a player's grants of free rounds, newest first."
})) {}

/** A grant the session's player may play now, as the game page sees it. */
export class SessionFreeRounds extends Schema.Class<SessionFreeRounds>("@gateway/domain/SessionFreeRounds")(Schema.Struct({
  grantId: Schema.String.annotate({ description: "The grant's id" }),
  campaignId: Schema.String.annotate({ description: "The operator's campaign" }),
  remaining: Schema.Int.annotate({ description: "Free rounds left" }),
  stake: Schema.String.annotate({ description: "The stake each free round plays, a decimal string" }),
  expiresAt: UtcTimestamp("When the rounds left lapse (ISO 8601, UTC)")
}).annotate({
  identifier: "SessionFreeRounds",
  description: "Free rounds the player may play in the launched game: `POST rounds {selection, freeRound: true}`."
})) {}

/** What a free round took from its grant: the grant, its campaign and stake, and how many rounds it has left. */
export interface FreeRoundTaken {
  readonly grantId: string
  readonly campaignId: string
  readonly stake: bigint
  readonly remaining: number
}

/** The free round a round played, in its answer. */
export const PlayedFreeRound = Schema.Struct({
  grantId: Schema.String.annotate({ description: "The grant the round was taken from" }),
  campaignId: Schema.String.annotate({ description: "The operator's campaign" }),
  remaining: Schema.Int.annotate({ description: "Free rounds left in the grant" })
}).annotate({ description: "The grant a free round was taken from and what it has left" })

/** A free round asked for with none left: no active, unexpired grant for the player and game. */
export class NoFreeRounds extends Schema.TaggedError<NoFreeRounds>()("NoFreeRounds", {}) {
  override get message(): string {
    return "no free rounds left for this player and game"
  }
}

/** No grant with this id for this merchant. */
export class GrantNotFound extends Schema.TaggedError<GrantNotFound>()("GrantNotFound", {
  grantId: Schema.String
}) {
  override get message(): string {
    return `no free-round grant with id '${this.grantId.slice(0, 64)}' for this merchant`
  }
}
