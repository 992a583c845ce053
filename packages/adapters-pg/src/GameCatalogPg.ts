import type { GameId, GameQuery, GameSearchField, GameSortField } from "@gateway/domain/Game"
import { Game, GameNotFound } from "@gateway/domain/Game"
import { offset } from "@gateway/domain/Paging"
import { GameCatalog } from "@gateway/domain/ports/GameCatalog"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

const GameRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  release_date: Schema.String,
  base_launch_url: Schema.NullOr(Schema.String),
  category: Schema.Number,
  image_url: Schema.String
})
type GameRow = typeof GameRow.Type
const decodeGames = Schema.decodeUnknownEffect(Schema.Array(GameRow))
const decodePage = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ ...GameRow.fields, total: Schema.Int })))
const decodeCount = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ total: Schema.Int })))

/** The sort keys of the contract and the indexed expressions behind them. */
const sortColumns: Readonly<Record<GameSortField, string>> = {
  name: "lower(name)",
  releaseDate: "release_date",
  category: "category",
  id: "id"
}

const searchColumns: Readonly<Record<GameSearchField, string>> = { name: "lower(name)", id: "lower(id)" }

/** Escapes LIKE's wildcards and its escape character, so the search text is matched as data. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, "\\$&")

/**
 * {@link GameCatalog} on PostgreSQL. Built-in games (no stored launch URL)
 * launch at `<publicBaseUrl>/play/<id>`. Listing, search (case-insensitive
 * substring, wildcards taken literally), sorting with `id` as tie-break,
 * paging and the total all run in the database. Retired games are neither
 * found nor listed; an upsert brings a retired game back.
 */
export const layer = (publicBaseUrl: string): Layer.Layer<GameCatalog, never, SqlClient> =>
  Layer.effect(
    GameCatalog,
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const base = publicBaseUrl.replace(/\/+$/, "")
      const builtinUrl = (id: string) => `${base}/play/${id}`
      const toGame = (row: GameRow) =>
        new Game({
          id: row.id,
          name: row.name,
          releaseDate: row.release_date,
          baseLaunchUrl: row.base_launch_url ?? builtinUrl(row.id),
          category: row.category,
          imageUrl: row.image_url
        })

      const find = Effect.fn("GameCatalog.find")(function*(id: string) {
        const [row] = yield* sql`
          SELECT id, name, release_date, base_launch_url, category, image_url
          FROM games WHERE id = ${id} AND retired_at IS NULL`.pipe(Effect.flatMap(decodeGames))
        if (row === undefined) return yield* new GameNotFound({ gameId: id })
        return toGame(row)
      }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

      const list = Effect.fn("GameCatalog.list")(function*(query: GameQuery) {
        const fields = query.searchFields.length === 0 ? (["name", "id"] as const) : query.searchFields
        const pattern = `%${escapeLike(query.search ?? "")}%`
        const where = query.search === undefined || query.search === ""
          ? sql`retired_at IS NULL`
          : sql`retired_at IS NULL AND ${
            sql.or(fields.map((field) => sql`${sql.literal(searchColumns[field])} LIKE lower(${pattern})`))
          }`
        const direction = sql.literal(query.sortOrder === "DESC" ? "DESC" : "ASC")
        const rows = yield* sql`
          SELECT id, name, release_date, base_launch_url, category, image_url, (count(*) OVER ())::int AS total
          FROM games WHERE ${where}
          ORDER BY ${sql.literal(sortColumns[query.sortBy])} ${direction}, id ${direction}
          LIMIT ${query.limit} OFFSET ${offset(query)}`.pipe(Effect.flatMap(decodePage))
        const first = rows[0]
        const total = first !== undefined
          ? first.total
          : (yield* sql`SELECT count(*)::int AS total FROM games WHERE ${where}`.pipe(Effect.flatMap(decodeCount)))[0]
            ?.total ?? 0
        return { games: rows.map(toGame), total }
      }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

      const upsert = Effect.fn("GameCatalog.upsert")(function*(id: GameId, game: Omit<Game, "id">) {
        const [row] = yield* sql`
          INSERT INTO games (id, name, release_date, base_launch_url, category, image_url)
          VALUES (${id}, ${game.name}, ${game.releaseDate}, ${game.baseLaunchUrl}, ${game.category}, ${game.imageUrl})
          ON CONFLICT (id) DO UPDATE SET
            name = EXCLUDED.name,
            release_date = EXCLUDED.release_date,
            base_launch_url = CASE WHEN games.builtin AND EXCLUDED.base_launch_url = ${builtinUrl(id)}
              THEN NULL ELSE EXCLUDED.base_launch_url END,
            category = EXCLUDED.category,
            image_url = EXCLUDED.image_url,
            retired_at = NULL,
            updated_at = now()
          RETURNING id, name, release_date, base_launch_url, category, image_url`.pipe(Effect.flatMap(decodeGames))
        if (row === undefined) return yield* Effect.die("upsert returned no row")
        return toGame(row)
      }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

      const retire = Effect.fn("GameCatalog.retire")(function*(id: GameId) {
        const rows = yield* sql`
          UPDATE games SET retired_at = now(), updated_at = now()
          WHERE id = ${id} AND retired_at IS NULL RETURNING id`
        if (rows.length === 0) return yield* new GameNotFound({ gameId: id })
      }, Effect.catchTag("SqlError", Effect.die))

      return GameCatalog.of({ find, list, upsert, retire })
    })
  )
