import type { GameId } from "@gateway/domain/Game"
import { Game, GameNotFound } from "@gateway/domain/Game"
import { GameCatalog } from "@gateway/domain/ports/GameCatalog"
import { Effect, Layer, PubSub, Schema, Semaphore } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
import { type Change, ChangeFeed } from "./cache/ChangeFeed.ts"
import * as CatalogSnapshot from "./cache/CatalogSnapshot.ts"

const GameRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  release_date: Schema.String,
  base_launch_url: Schema.NullOr(Schema.String),
  category: Schema.Number,
  image_url: Schema.String,
  listed: Schema.Boolean
})
type GameRow = typeof GameRow.Type
const decodeGames = Schema.decodeUnknownEffect(Schema.Array(GameRow))

const columns = "id, name, release_date, base_launch_url, category, image_url, retired_at IS NULL AS listed"

/** More changed games than this at once reload the whole catalogue instead of each game. */
const reloadAbove = 100

/**
 * {@link GameCatalog} on PostgreSQL, served from memory: each instance holds
 * the listed games as an immutable {@link CatalogSnapshot} (loaded at start),
 * so finding, listing, sorting, searching and paging never touch the
 * database. Upserts and retirements go to the `games` table and are in this
 * instance's snapshot before they answer, once their transaction commits (an
 * audited change whose entry fails, rolled back, never reaches the snapshot:
 * `sql.afterCommit`); every other instance applies them
 * when the {@link ChangeFeed} tells it (LISTEN/NOTIFY, milliseconds; the
 * feed's version check is the safety net). Built-in games (no stored launch
 * URL) launch at `<publicBaseUrl>/play/<id>`, and their images (stored as a
 * path, `/static/games/<id>.svg`) are answered as absolute URLs on the same
 * base, which an operator's site can use as they are. Retired games are neither found
 * nor listed; an upsert brings a retired game back.
 */
export const make = Effect.fnUntraced(function*(publicBaseUrl: string) {
  const sql = yield* SqlClient
  const feed = yield* ChangeFeed
  const base = publicBaseUrl.replace(/\/+$/, "")
  const builtinUrl = (id: string) => `${base}/play/${id}`
  const toGame = (row: GameRow) =>
    new Game({
      id: row.id,
      name: row.name,
      releaseDate: row.release_date,
      baseLaunchUrl: row.base_launch_url ?? builtinUrl(row.id),
      category: row.category,
      imageUrl: row.image_url.startsWith("/") ? `${base}${row.image_url}` : row.image_url
    })
  const rows = (where: Fragment) =>
    sql`SELECT ${sql.literal(columns)} FROM games WHERE ${where}`.pipe(Effect.flatMap(decodeGames), Effect.orDie)

  const changes = yield* feed.subscribe
  const lock = yield* Semaphore.make(1)
  let snapshot = CatalogSnapshot.make((yield* rows(sql`retired_at IS NULL`)).map(toGame))

  /** Applies what the table now says of these rows (listed → in, retired or gone → out). */
  const apply = (ids: ReadonlyArray<string>, found: ReadonlyArray<GameRow>) => {
    const listed = found.filter((row) => row.listed)
    const kept = new Set(listed.map((row) => row.id))
    snapshot = snapshot.change(listed.map(toGame), ids.filter((id) => !kept.has(id)))
  }
  const refresh = (ids: ReadonlyArray<string>) =>
    lock.withPermits(1)(Effect.map(rows(sql`id IN ${sql.in(ids)}`), (found) => apply(ids, found)))
  const reload = lock.withPermits(1)(
    Effect.map(rows(sql`retired_at IS NULL`), (found) => {
      snapshot = CatalogSnapshot.make(found.map(toGame))
    })
  )

  const follow = (batch: ReadonlyArray<Change>) => {
    const games = batch.filter((change) => change.topic === "games")
    if (games.length === 0) return Effect.void
    const ids = [...new Set(games.flatMap((change) => change.key === undefined ? [] : [change.key]))]
    return games.some((change) => change.key === undefined) || ids.length > reloadAbove ? reload : refresh(ids)
  }
  yield* PubSub.takeAll(changes).pipe(
    Effect.flatMap(follow),
    Effect.catchCause((cause) => Effect.logWarning("refreshing the games catalogue failed", cause)),
    Effect.forever,
    Effect.forkScoped
  )

  const find = (id: string) =>
    Effect.suspend(() => {
      const game = snapshot.find(id)
      return game === undefined ? Effect.fail(new GameNotFound({ gameId: id })) : Effect.succeed(game)
    })

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
      RETURNING ${sql.literal(columns)}`.pipe(Effect.flatMap(decodeGames))
    if (row === undefined) return yield* Effect.die("upsert returned no row")
    yield* sql.afterCommit(lock.withPermits(1)(Effect.sync(() => apply([id], [row]))))
    return toGame(row)
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const retire = Effect.fn("GameCatalog.retire")(function*(id: GameId) {
    const retired = yield* sql`
      UPDATE games SET retired_at = now(), updated_at = now()
      WHERE id = ${id} AND retired_at IS NULL RETURNING id`
    yield* sql.afterCommit(lock.withPermits(1)(Effect.sync(() => apply([id], []))))
    if (retired.length === 0) return yield* new GameNotFound({ gameId: id })
  }, Effect.catchTag("SqlError", Effect.die))

  return GameCatalog.of({
    find,
    list: (query) => Effect.sync(() => snapshot.list(query)),
    version: Effect.sync(() => snapshot.version),
    upsert,
    retire
  })
})

/** The catalogue held in memory, kept fresh from the `games` table through the change feed. */
export const layer = (publicBaseUrl: string): Layer.Layer<GameCatalog, never, SqlClient | ChangeFeed> =>
  Layer.effect(GameCatalog, make(publicBaseUrl))
