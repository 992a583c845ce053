import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Trigram indexes for the case-insensitive substring search of the games
 * list, when the server has `pg_trgm`. Without it (the extension is not
 * installed, or the role may not create it) the migration succeeds without
 * the indexes and searches scan the listed games. The extension attempt runs
 * in a savepoint so its failure does not abort the migration transaction.
 */
export const m0002_games_search = Effect.gen(function*() {
  const sql = yield* SqlClient
  const trgm = yield* sql.withTransaction(sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`).pipe(
    Effect.as(true),
    Effect.catchTag("SqlError", (error) =>
      Effect.logWarning(`pg_trgm is not available, game search runs without trigram indexes: ${error.message}`).pipe(
        Effect.as(false)
      ))
  )
  if (!trgm) return
  yield* sql`CREATE INDEX games_name_trgm_idx ON games USING gin (lower(name) gin_trgm_ops) WHERE retired_at IS NULL`
  yield* sql`CREATE INDEX games_id_trgm_idx ON games USING gin (lower(id) gin_trgm_ops) WHERE retired_at IS NULL`
})
