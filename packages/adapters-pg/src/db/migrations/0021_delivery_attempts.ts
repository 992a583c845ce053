import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * What the back office shows of webhook deliveries and API keys (CONTRACT §9).
 * `webhook_attempts`: each failed attempt of a message, written by the same
 * statement that schedules its retry (or marks it failed), at most 20 per
 * message (`slot` = the attempt's number, the 20th slot overwritten by later
 * ones). `webhook_deliveries.answer`: the attempt that was delivered, written
 * by the UPDATE that marks the message delivered. Each keeps the signed
 * timestamp, from which the request's headers are recomputed.
 * `api_keys.last_used_at`: written at most once a minute per key.
 * Nullable columns without a default rewrite nothing.
 */
export const m0021_delivery_attempts = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE webhook_attempts (
      delivery_id text NOT NULL,
      slot integer NOT NULL CHECK (slot BETWEEN 1 AND 20),
      at timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      url text NOT NULL,
      status integer,
      headers jsonb,
      body text,
      error text,
      PRIMARY KEY (delivery_id, slot)
    )`
  yield* sql`ALTER TABLE webhook_deliveries ADD COLUMN answer jsonb`
  yield* sql`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`
})
