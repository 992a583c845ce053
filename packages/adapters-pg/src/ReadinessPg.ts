import { Readiness } from "@gateway/domain/ports/Readiness"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/** Ready when the database answers `SELECT 1`. */
export const layer: Layer.Layer<Readiness, never, SqlClient> = Layer.effect(
  Readiness,
  Effect.map(SqlClient, (sql) => Readiness.of({ check: sql`SELECT 1`.pipe(Effect.as(true), Effect.orElseSucceed(() => false)) }))
)
