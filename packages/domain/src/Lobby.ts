import { Schema } from "effect"
import { PageMeta } from "./Paging.ts"

/** A line of a game's pay table. */
export const PayoutLine = Schema.Struct({
  condition: Schema.String.annotate({ description: "When it pays, for people, e.g. \"2 of 3 dice show your colour\"" }),
  multiplier: Schema.String.annotate({
    description: "What it returns per unit staked (stake included), 4 fraction digits; the payout is the stake " +
      "times this, rounded down to the currency's minor unit"
  }),
  picks: Schema.optionalKey(Schema.Int),
  hits: Schema.optionalKey(Schema.Int),
  selection: Schema.optionalKey(Schema.String)
})

/** The answer of `GET /game-api/games/{gameId}/rules`. */
export class GameRulesView extends Schema.Class<GameRulesView>("@gateway/domain/GameRulesView")(Schema.Struct({
  gameId: Schema.String,
  name: Schema.String,
  description: Schema.String,
  selectionSchema: Schema.Unknown.annotate({ description: "The JSON Schema (draft 2020-12) of the game's selection" }),
  examples: Schema.Array(Schema.Unknown),
  rtp: Schema.String.annotate({
    description: "The return to player in percent with 2 decimals, e.g. \"97.50\": 100 − the merchant's " +
      "`<game>GameProfit` when asked with a session token, else the default"
  }),
  payouts: Schema.Array(PayoutLine)
}).annotate({
  identifier: "GameRulesView",
  description: "The answer of `GET /game-api/games/{gameId}/rules`."
})) {}

/** A game of the lobby. */
export const LobbyGame = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  category: Schema.Int,
  imageUrl: Schema.String,
  rtp: Schema.String
})

/** The answer of `GET /game-api/games`: a page of the built-in games the session may play. */
export class LobbyList extends Schema.Class<LobbyList>("@gateway/domain/LobbyList")(Schema.Struct({
  data: Schema.Array(LobbyGame),
  meta: PageMeta
}).annotate({
  identifier: "LobbyList",
  description: "The answer of `GET /game-api/games`: a page of the built-in games the session may play."
})) {}
