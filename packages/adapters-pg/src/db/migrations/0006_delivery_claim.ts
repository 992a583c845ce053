import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The outbox claim as one function whose plan does not depend on table
 * statistics. Right after a large batch is queued the statistics still say
 * the table is small, and the planner then sorted the whole backlog on every
 * claim (a bitmap scan of all pending rows, 8 ms for 20,000 and more as the
 * table filled with dead versions): draining 20,000 messages took minutes.
 * With sequential, bitmap and sort plans disabled inside the function, a
 * claim always walks `webhook_deliveries_due_idx` in `next_attempt_at` order
 * and stops after `claim_limit` rows. The outbox churns (three row versions
 * a message), so autovacuum is asked to visit it early.
 */
export const m0006_delivery_claim = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE FUNCTION webhook_deliveries_claim(claim_limit integer, lease_seconds float8)
    RETURNS TABLE (id text, merchant_id integer, type text, body text, attempts integer, created_at timestamptz)
    LANGUAGE sql VOLATILE
    SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off
    AS $$
      WITH due AS (
        SELECT w.id FROM webhook_deliveries w
        WHERE w.status = 'pending' AND w.next_attempt_at <= now() AND (w.lease_until IS NULL OR w.lease_until < now())
        ORDER BY w.next_attempt_at
        LIMIT claim_limit
        FOR UPDATE SKIP LOCKED
      )
      UPDATE webhook_deliveries d
      SET lease_until = now() + make_interval(secs => lease_seconds), attempts = d.attempts + 1
      FROM due
      WHERE d.id = due.id AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < now())
      RETURNING d.id, d.merchant_id, d.type, d.body, d.attempts, d.created_at
    $$`
  yield* sql`
    ALTER TABLE webhook_deliveries SET (
      autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000,
      autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 1000
    )`
})
