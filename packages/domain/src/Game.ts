import { Schema } from "effect"

/** A game's slug, used as `gameId` at launch. (The `u` flag lets the pattern into the OpenAPI document.) */
export const GameId = Schema.String.check(
  Schema.isPattern(/^[a-z0-9-]{1,64}$/u, { message: "must be 1 to 64 lower-case letters, digits or '-'" }),
  Schema.makeFilter((id: string) => id !== "generate-launch-url" || "is a reserved path")
).pipe(Schema.brand("GameId"))
export type GameId = typeof GameId.Type

/** An element of the games list, exactly as the seed names its fields. */
export class Game extends Schema.Class<Game>("@gateway/domain/Game")(Schema.Struct({
  id: Schema.String.annotate({ description: "The game's id" }),
  name: Schema.String.annotate({ description: "The game's name" }),
  releaseDate: Schema.String.annotate({ description: "When the game was released (ISO 8601 date)" }),
  baseLaunchUrl: Schema.String.annotate({ description: "The game's page; a launch URL is it with the `token` query parameter" }),
  category: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2_147_483_647 })).annotate({ description: "The game's category (1 table games, 2 colour games, 3 number draws for the built-in ones)" }),
  imageUrl: Schema.String.annotate({ description: "The game's image" })
}).annotate({
  identifier: "Game",
  description: "A game of the catalogue."
})) {}

/** The fields the games list can be sorted by. */
export const GameSortField = Schema.Literals(["name", "releaseDate", "category", "id"])
export type GameSortField = typeof GameSortField.Type

/** The fields a search looks in. */
export const GameSearchField = Schema.Literals(["name", "id"])
export type GameSearchField = typeof GameSearchField.Type

export const SortOrder = Schema.Literals(["ASC", "DESC"])
export type SortOrder = typeof SortOrder.Type

/** A query of the games list with every default of the contract applied. */
export interface GameQuery {
  readonly page: number
  readonly limit: number
  readonly sortBy: GameSortField
  readonly sortOrder: SortOrder
  readonly search?: string | undefined
  readonly searchFields: ReadonlyArray<GameSearchField>
}

export const defaultGameQuery: GameQuery = {
  page: 1,
  limit: 20,
  sortBy: "name",
  sortOrder: "ASC",
  searchFields: ["name", "id"]
}

/** The largest page the games list serves. */
export const maxPageSize = 100

/**
 * A game retired from the catalogue: no session plays it any more, opened
 * before the retirement or after (CONTRACT §6), and no launch link of it
 * redeems.
 */
export class GameRetired extends Schema.TaggedError<GameRetired>()("GameRetired", {
  gameId: Schema.String
}) {
  override get message(): string {
    return `the game '${this.gameId.slice(0, 128)}' has been retired from the catalogue and can no longer be played`
  }
}

/** No game with this id in the catalogue (or it was retired). */
export class GameNotFound extends Schema.TaggedError<GameNotFound>()("GameNotFound", {
  gameId: Schema.String
}) {
  override get message(): string {
    return `no game with id '${this.gameId.slice(0, 128)}'`
  }
}
