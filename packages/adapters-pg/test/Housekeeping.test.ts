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
})
