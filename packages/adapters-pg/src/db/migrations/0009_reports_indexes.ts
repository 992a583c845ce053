import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The operator's reconciliation reads (CONTRACT §8): a merchant's rounds of a
 * period, newest first, and the summary over the same period, by an index
 * instead of a scan of every merchant's rounds.
 */
export const m0009_reports_indexes = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`CREATE INDEX rounds_merchant_created_idx ON rounds (merchant_id, created_at DESC, id DESC)`
})
