import { Schema } from "effect"
import { CurrencyCode } from "./Currency.ts"
import { Fairness, RoundFairness } from "./Fairness.ts"
import { allRules } from "./games/Games.ts"
import { PlayedFreeRound } from "./FreeRound.ts"
import { PageMeta } from "./Paging.ts"
import { UtcTimestamp } from "./Validation.ts"

/** What a selection is, for people. */
export const selectionDescription = "The game's selection, a JSON value: odd-even `\"odd\"`/`\"even\"`; under-over " +
  "`\"under\"`/`\"seven\"`/`\"over\"`; color-game a colour like `\"red\"`; lotto 1–6 distinct numbers of 1–49; " +
  "mega-ten 1–10 distinct numbers of 1–80; single a number of 1–36. Each game publishes its JSON Schema and " +
  "examples at `GET /api/v1.1/game-api/games/{gameId}/rules`; the game's rules decide (400 naming `selection`)."

/** A game's selection: a JSON value whose shape each game's rules give (`GET game-api/games/{gameId}/rules`). */
export const Selection = Schema.Unknown.annotateKey({ description: selectionDescription })

/** Each built-in game's selection schema without its `$schema`, for a document that shows any of them. */
export const selectionSchemas = allRules.map(({ selectionSchema: { $schema: _, ...schema } }) => schema)

/** What a round showed: a JSON object whose fields depend on the game, always with a `summary` for people. */
export const Outcome = Schema.Unknown.annotateKey({
  description: "The draw, as a JSON object whose fields depend on the game (`docs/games.md`), always with " +
    "`summary`, a short text such as `\"17 odd\"`."
})

/** The body of `POST /game-api/rounds`: a stake as a decimal string, the game's selection and, in a lobby, the game. */
export const PlayRequest = Schema.Struct({
  stake: Schema.optionalKey(Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(32)).annotate({
    description: "The stake, a decimal string in the session's currency with at most its minor digits, e.g. " +
      "\"5.00\"; required unless `freeRound` is true (a free round plays its grant's stake)"
  })),
  selection: Selection,
  gameId: Schema.optionalKey(Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(64)).annotate({
    description: "The game to play (a lobby session may play any built-in game); default: the launched game"
  })),
  autoplay: Schema.optionalKey(Schema.Boolean.annotate({
    description: "`true` for a round of the autoplay started with `POST autoplay`: refused (409 " +
      "AUTOPLAY_LIMIT_REACHED, nothing debited) once it has played its rounds or lost its loss limit"
  })),
  freeRound: Schema.optionalKey(Schema.Boolean.annotate({
    description: "`true` plays one of the player's free rounds of the game (CONTRACT §13) at its grant's stake: no " +
      "debit is sent; none left is 409 NO_FREE_ROUNDS"
  }))
}).annotate({
  description: "The body of `POST /game-api/rounds`: the stake (or `freeRound: true`), the selection and, in a lobby, the game.",
  examples: [{ stake: "5.00", selection: "odd" }, { stake: "2.50", selection: [7, 19, 23], gameId: "lotto" }, {
    selection: "even",
    freeRound: true
  }]
})
export type PlayRequest = typeof PlayRequest.Type

/** What a game decided: an outcome to show and the payout in minor units (0 for a loss). */
export interface Outcome {
  readonly outcome: { readonly summary: string }
  readonly payout: bigint
}

/** The answer of a round. Amounts are decimal strings of the session's currency. */
export class RoundResult extends Schema.Class<RoundResult>("@gateway/domain/RoundResult")(Schema.Struct({
  roundId: Schema.String.annotate({ description: "The round's id" }),
  gameId: Schema.String.annotate({ description: "The game played" }),
  outcome: Outcome.annotate({ description: "What the round drew" }),
  payout: Schema.String.annotate({ description: "What the round paid, a decimal string (\"0.00\" for a loss)" }),
  balance: Schema.optionalKey(Schema.String).annotate({
    description: "The player's balance after the round, a decimal string; absent after a free round (no debit was " +
      "sent, so the operator's balance is not known: its win reaches the operator as a credit)"
  }),
  fairness: Fairness.annotate({ description: "The seed hash, client seed and nonce this round used" }),
  freeRound: Schema.optionalKey(PlayedFreeRound)
}).annotate({
  identifier: "RoundResult",
  description: "The answer of a round. Amounts are decimal strings of the session's currency."
})) {}

/** Where a round is: real rounds go `debiting` → `settled`, `refused` or `failed`; demo rounds are `settled`. */
export const RoundStatus = Schema.Literals(["debiting", "settled", "refused", "failed"])

/** A round as its session sees it (`GET /game-api/rounds/{roundId}`). */
export class RoundView extends Schema.Class<RoundView>("@gateway/domain/RoundView")(Schema.Struct({
  roundId: Schema.String.annotate({ description: "The round's id" }),
  gameId: Schema.String.annotate({ description: "The game played" }),
  mode: Schema.Literals(["real", "demo"]).annotate({ description: "`real` (money) or `demo` (virtual balance)" }),
  status: RoundStatus.annotate({ description: "`debiting`, then `settled`, `refused` or `failed`" }),
  stake: Schema.String.annotate({ description: "The stake, a decimal string" }),
  selection: Selection,
  outcome: Schema.optionalKey(Outcome).annotate({ description: "What the round drew, once it is settled" }),
  payout: Schema.optionalKey(Schema.String).annotate({ description: "What the round paid, once it is settled" }),
  createdAt: UtcTimestamp("When the round was played (ISO 8601, UTC)"),
  fairness: Schema.optionalKey(RoundFairness).annotate({ description: "The seeds and nonce of the draw, to verify it" })
}).annotate({
  identifier: "RoundView",
  description: "A round as its session sees it (`GET /game-api/rounds/{roundId}`)."
})) {}

/** A round as its signed link shows it (CONTRACT §10): the round with its currency, and its proof once revealed. */
export class RoundDetails extends Schema.Class<RoundDetails>("@gateway/domain/RoundDetails")(Schema.Struct({
  ...RoundView.fields,
  currency: CurrencyCode
}).annotate({
  identifier: "RoundDetails",
  description: "A round as its signed link (`roundDetailsUrl`) shows it: selection, outcome, payout and, once the " +
    "server seed is revealed (a client seed change, or the session has ended), `fairness.serverSeed` to verify the draw."
})) {}

/** The answer of `GET /game-api/rounds`: a page of the session's rounds, newest first. */
export class RoundList extends Schema.Class<RoundList>("@gateway/domain/RoundList")(Schema.Struct({
  data: Schema.Array(RoundView).annotate({ description: "The rounds of this page, newest first" }),
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
