import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * A message queued already leased (a round's credit handed straight to the worker of the process that queued it:
 * `db/Handoff.ts`) wakes no worker: nobody else may claim it before its lease runs out, so a NOTIFY at its commit
 * would only make every instance run a claim that finds nothing. Unleased messages notify as before.
 */
export const m0013_outbox_handoff = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`DROP TRIGGER webhook_deliveries_inserted ON webhook_deliveries`
  yield* sql`
    CREATE TRIGGER webhook_deliveries_inserted AFTER INSERT ON webhook_deliveries
    FOR EACH ROW WHEN (NEW.status = 'pending' AND NEW.lease_until IS NULL) EXECUTE FUNCTION webhook_deliveries_notify()`
})
