import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as Housekeeping from "../src/jobs/Housekeeping.ts"
import * as PgTest from "../testing/PgTest.ts"

layer(PgTest.layer)("Housekeeping", (it) => {
  it.effect("deletes only redemptions older than the longest launch token could live", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      yield* sql`INSERT INTO launch_redemptions (jti, redeemed_at) VALUES
        (gen_random_uuid(), now() - interval '3 hours'),
        (gen_random_uuid(), now() - interval '90 minutes'),
        (gen_random_uuid(), now())`
      assert.strictEqual(yield* Housekeeping.purgeRedemptions, 1)
      const [row] = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM launch_redemptions`
      assert.strictEqual(row?.n, 2)
    }))

  it.effect("deletes the back office's old sign-in failures, expired codes and sessions past any lifetime", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      yield* sql`INSERT INTO backoffice_login_failures VALUES ('account:old@x.example', 3, now() - interval '25 hours'),
        ('account:new@x.example', 3, now())`
      assert.strictEqual(yield* Housekeeping.purgeBackoffice, 1)
      const rows = yield* sql<{ readonly key: string }>`SELECT key FROM backoffice_login_failures`
      assert.deepStrictEqual(rows.map((r) => r.key), ["account:new@x.example"])
    }))

  it.effect("says why the outbox will not be vacuumed: the server's autovacuum off, or the table's", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      // This machine's server and the embedded one differ: .ci/run and the embedded run take both branches.
      const [setting] = yield* sql<{ readonly on: boolean }>`SELECT current_setting('autovacuum') = 'on' AS on`
      const serverOff = "autovacuum is off on this PostgreSQL server"
      yield* sql`ALTER TABLE webhook_deliveries SET (autovacuum_enabled = false)`
      const tableOff = yield* Housekeeping.outboxVacuumOff
      yield* sql`ALTER TABLE webhook_deliveries RESET (autovacuum_enabled)`
      assert.strictEqual(tableOff, setting?.on ? "autovacuum is disabled for the table webhook_deliveries" : serverOff)
      assert.strictEqual(yield* Housekeeping.outboxVacuumOff, setting?.on ? undefined : serverOff)
    }))
})
