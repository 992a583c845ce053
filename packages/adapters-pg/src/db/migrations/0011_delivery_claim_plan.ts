import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The outbox claim (0006) with a plan that stays a walk of the due index
 * whatever the statistics say. 0006 fixed how the due rows are found, but
 * not how the UPDATE joins them: once `ANALYZE` (autovacuum's, a minute
 * after a backlog is queued) knew the backlog's size, the planner expected a
 * tenth of it from the `LIMIT` of a parameter and hashed every pending row
 * on each claim to join them to the few it had locked — 20,000 index entries
 * read and ~4 ms for a claim of 16, growing with the backlog, just when a
 * worker catches up after an outage. Now hash and merge joins are off too
 * (the locked rows are joined by the primary key, one probe each), and the
 * statement is PL/pgSQL's, so each connection plans it once (a generic plan)
 * instead of on every call, as a `LANGUAGE sql` function is: planning alone
 * read hundreds of buffers per claim. Same signature, same rows, same order;
 * replaced in place, so instances still running the old code (a rolling
 * upgrade) call the new one.
 */
export const m0011_delivery_claim_plan = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE OR REPLACE FUNCTION webhook_deliveries_claim(claim_limit integer, lease_seconds float8)
    RETURNS TABLE (id text, merchant_id integer, type text, body text, attempts integer, created_at timestamptz)
    LANGUAGE plpgsql VOLATILE
    SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off
    SET enable_hashjoin = off SET enable_mergejoin = off SET plan_cache_mode = force_generic_plan
    AS $$
    #variable_conflict use_column
    BEGIN
      RETURN QUERY
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
      RETURNING d.id, d.merchant_id, d.type, d.body, d.attempts, d.created_at;
    END
    $$`
})
