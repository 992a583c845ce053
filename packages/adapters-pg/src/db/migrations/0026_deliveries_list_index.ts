import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * A merchant's webhook deliveries, newest first (the back office's and the operator API's list, with or without a
 * status): without this index the list read the whole outbox, every merchant's messages of every day (delivered
 * ones are kept), and sorted them: 20,003 rows to list a merchant's 3 (`DeliveryQueuePg.test.ts`). With it, the
 * newest `limit` of the merchant, in order.
 *
 * Its cost is on the bet path: every credit's outbox row writes one more index entry when it is queued, and one
 * when it is marked delivered (that update already changes `status`, an indexed column, so it is never HOT).
 * Measured with `BENCH_ONLY=gateway BENCH_CONNECTIONS=16 npm run bench:bet`, two alternated pairs (2026-11-29):
 * PostgreSQL's CPU a round 0.385–0.395 ms against 0.350–0.355 without it, WAL 5,088 bytes a round against
 * ~4,780 (8,697 in a run that met a checkpoint: the new pages' first writes are whole), the rounds a second at 16
 * connections 1,213–1,280 against 1,264–1,318 (~2 % fewer). Paid for a list that stays a few index entries deep
 * however long the outbox grows, where it read every row.
 *
 * A plain `CREATE INDEX`, as 0012 (which says why): it blocks the outbox's writes, and so bets, while it builds,
 * about a second per million messages. On a large `webhook_deliveries`, create it by hand with `CONCURRENTLY`
 * before upgrading (docs/operations.md), and this finds it.
 */
export const m0026_deliveries_list_index = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE INDEX IF NOT EXISTS webhook_deliveries_merchant_created_idx
      ON webhook_deliveries (merchant_id, created_at DESC, id)`
})
