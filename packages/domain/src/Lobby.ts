import { Schema } from "effect"
import { PageLanguage } from "./PageLaunch.ts"
import { PageMeta } from "./Paging.ts"

/** A line of a game's pay table. */
export const PayoutLine = Schema.Struct({
  condition: Schema.String.annotate({ description: "When it pays, for people, e.g. \"2 of 3 dice show your colour\"" }),
  multiplier: Schema.String.annotate({
    description: "What it returns per unit staked (stake included), 4 fraction digits; the payout is the stake " +
      "times this, rounded down to the currency's minor unit"
  }),
  picks: Schema.optionalKey(Schema.Int).annotate({ description: "Numbers picked (lotto, mega-ten), when the line depends on it" }),
  hits: Schema.optionalKey(Schema.Int).annotate({ description: "Picked numbers drawn, when the line depends on it" }),
  selection: Schema.optionalKey(Schema.String).annotate({ description: "The selection this line pays, when it depends on it" })
})

/** The answer of `GET /game-api/games/{gameId}/rules`. */
export class GameRulesView extends Schema.Class<GameRulesView>("@gateway/domain/GameRulesView")(Schema.Struct({
  gameId: Schema.String.annotate({ description: "The game's id" }),
  name: Schema.String.annotate({ description: "The game's name, for people" }),
  description: Schema.String.annotate({ description: "How the game is played, for people" }),
  selectionSchema: Schema.Unknown.annotateKey({ description: "The JSON Schema (draft 2020-12) of the game's selection" }),
  examples: Schema.Array(Schema.Unknown).annotate({ description: "Valid selections, for a first round" }),
  rtp: Schema.String.annotate({
    description: "The return to player in percent with 2 decimals, e.g. \"97.50\": 100 − the merchant's " +
      "`<game>GameProfit` when asked with a session token, else the default"
  }),
  payouts: Schema.Array(PayoutLine).annotate({ description: "The pay table" }),
  languages: Schema.Array(PageLanguage).annotate({
    description: "The languages the game page speaks (the launch's `language`); its name, description, pay table and messages are translated there"
  })
}).annotate({
  identifier: "GameRulesView",
  description: "The answer of `GET /game-api/games/{gameId}/rules`."
})) {}

/** A game of the lobby. */
export const LobbyGame = Schema.Struct({
  id: Schema.String.annotate({ description: "The game's id" }),
  name: Schema.String.annotate({ description: "The game's name, for people" }),
  category: Schema.Int.annotate({ description: "The game's category" }),
  imageUrl: Schema.String.annotate({ description: "The game's image" }),
  rtp: Schema.String.annotate({ description: "The return to player in percent, e.g. \"97.30\"" })
})

/** The answer of `GET /game-api/games`: a page of the built-in games the session may play. */
export class LobbyList extends Schema.Class<LobbyList>("@gateway/domain/LobbyList")(Schema.Struct({
  data: Schema.Array(LobbyGame).annotate({ description: "The games of this page" }),
  meta: PageMeta
}).annotate({
  identifier: "LobbyList",
  description: "The answer of `GET /game-api/games`: a page of the built-in games the session may play."
})) {}
