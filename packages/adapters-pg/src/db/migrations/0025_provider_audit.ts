import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The audit log records the provider's own changes too — a game of the catalogue added, changed or retired, the
 * launch-token key rotated, through the admin API: who, when, from where, before and after — which belong to no
 * merchant: their `merchant_id` is NULL, and they are listed from an index of their own. Dropping NOT NULL
 * changes no row (the append-only triggers fire on UPDATE, DELETE and TRUNCATE, not on ALTER TABLE).
 */
export const m0025_provider_audit = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE audit_log ALTER COLUMN merchant_id DROP NOT NULL`
  yield* sql`CREATE INDEX IF NOT EXISTS audit_log_provider_idx ON audit_log (id DESC) WHERE merchant_id IS NULL`
})
