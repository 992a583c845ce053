import { Schema } from "effect"
import { Fairness, RoundFairness } from "./Fairness.ts"
import { allRules } from "./games/Games.ts"
import { PageMeta } from "./Paging.ts"

/** What a selection is, for people. */
export const selectionDescription = "The game's selection, a JSON value: odd-even `\"odd\"`/`\"even\"`; under-over " +
  "`\"under\"`/`\"seven\"`/`\"over\"`; color-game a colour like `\"red\"`; lotto 1–6 distinct numbers of 1–49; " +
  "mega-ten 1–10 distinct numbers of 1–80; single a number of 1–36. Each game publishes its JSON Schema and " +
  "examples at `GET /api/v1.1/game-api/games/{gameId}/rules`; the game's rules decide (400 naming `selection`)."

/** A game's selection: a JSON value whose shape each game's rules give (`GET game-api/games/{gameId}/rules`). */
export const Selection = Schema.Unknown.annotate({ description: selectionDescription })

/** Each built-in game's selection schema without its `$schema`, for a document that shows any of them. */
export const selectionSchemas = allRules.map(({ selectionSchema: { $schema: _, ...schema } }) => schema)

/** What a round showed: a JSON object whose fields depend on the game, always with a `summary` for people. */
export const Outcome = Schema.Unknown.annotate({
  description: "The draw, as a JSON object whose fields depend on the game (`docs/games.md`), always with " +
    "`summary`, a short text such as `\"17 odd\"`."
})

/** The body of `POST /game-api/rounds`: a stake as a decimal string, the game's selection and, in a lobby, the game. */
export const PlayRequest = Schema.Struct({
  stake: Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(32)).annotate({
    description: "The stake, a decimal string in the session's currency with at most its minor digits, e.g. \"5.00\""
  }),
  selection: Selection,
  gameId: Schema.optionalKey(Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(64)).annotate({
    description: "The game to play (a lobby session may play any built-in game); default: the launched game"
  }))
}).annotate({
  identifier: "PlayRequest",
  description: "The body of `POST /game-api/rounds`: the stake, the selection and, in a lobby, the game."
})
export type PlayRequest = typeof PlayRequest.Type

/** What a game decided: an outcome to show and the payout in minor units (0 for a loss). */
export interface Outcome {
  readonly outcome: { readonly summary: string }
  readonly payout: bigint
}

/** The answer of a round. Amounts are decimal strings of the session's currency. */
export class RoundResult extends Schema.Class<RoundResult>("@gateway/domain/RoundResult")(Schema.Struct({
  roundId: Schema.String,
  gameId: Schema.String,
  outcome: Outcome,
  payout: Schema.String,
  balance: Schema.String,
  fairness: Fairness.annotate({ description: "The seed hash, client seed and nonce this round used" })
}).annotate({
  identifier: "RoundResult",
  description: "The answer of a round. Amounts are decimal strings of the session's currency."
})) {}

/** Where a round is: real rounds go `debiting` → `settled`, `refused` or `failed`; demo rounds are `settled`. */
export const RoundStatus = Schema.Literals(["debiting", "settled", "refused", "failed"])

/** A round as its session sees it (`GET /game-api/rounds/{roundId}`). */
export class RoundView extends Schema.Class<RoundView>("@gateway/domain/RoundView")(Schema.Struct({
  roundId: Schema.String,
  gameId: Schema.String,
  mode: Schema.Literals(["real", "demo"]),
  status: RoundStatus,
  stake: Schema.String,
  selection: Selection,
  outcome: Schema.optionalKey(Outcome),
  payout: Schema.optionalKey(Schema.String),
  createdAt: Schema.DateTimeUtcFromString,
  fairness: Schema.optionalKey(RoundFairness)
}).annotate({
  identifier: "RoundView",
  description: "A round as its session sees it (`GET /game-api/rounds/{roundId}`)."
})) {}

/** The answer of `GET /game-api/rounds`: a page of the session's rounds, newest first. */
export class RoundList extends Schema.Class<RoundList>("@gateway/domain/RoundList")(Schema.Struct({
  data: Schema.Array(RoundView),
  meta: PageMeta
}).annotate({
  identifier: "RoundList",
  description: "The answer of `GET /game-api/rounds`: a page of the session's rounds, newest first."
})) {}

/** No round with this id in this session. */
export class RoundNotFound extends Schema.TaggedError<RoundNotFound>()("RoundNotFound", {
  roundId: Schema.String
}) {
  override get message(): string {
    return `no round '${this.roundId.slice(0, 64)}' in this session`
  }
}
