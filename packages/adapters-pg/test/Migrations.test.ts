import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as Migrations from "../src/db/Migrations.ts"
import * as PgTest from "../testing/PgTest.ts"

describe("Migrations", () => {
  layer(PgTest.layerEmpty)((it) => {
    it.effect("run concurrently and again, applying each migration once", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const runs = yield* Effect.all([Migrations.run, Migrations.run, Migrations.run], { concurrency: "unbounded" })
        assert.strictEqual(runs.flat().length, Object.keys(Migrations.migrations).length)
        assert.deepStrictEqual(yield* Migrations.run, [])
        const applied = yield* sql`SELECT migration_id FROM gateway_migrations ORDER BY migration_id`
        assert.deepStrictEqual(applied.map((row) => row["migration_id"]), [1, 2, 3, 4, 5, 6])
        const games = yield* sql`SELECT id FROM games WHERE builtin ORDER BY id`
        assert.deepStrictEqual(games.map((row) => row["id"]), [
          "color-game", "lotto", "mega-ten", "odd-even", "single", "under-over"
        ])
        const indexes = yield* sql`SELECT indexname FROM pg_indexes WHERE tablename = 'games'`
        const names = indexes.map((row) => row["indexname"])
        assert.include(names, "games_listed_name_idx")
        const trgm = yield* sql`SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'`
        if (trgm.length > 0) assert.include(names, "games_name_trgm_idx")
      }))

    it.effect("enforce one email per merchant regardless of case and the account status values", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const insert = (email: string, status: string) =>
          sql`INSERT INTO merchants (email, company_name, country, currency, account_status, client_id, hashed_client_id,
              provider_id, public_key, private_key_enc, encryption_key_enc, password_hash, otp_hash)
            VALUES (${email}, 'c', 'ET', 'ETB', ${status}, gen_random_uuid(), 'h', 1, 'pk', 'x', 'y', 'p', 'o')`
        yield* insert("a@b.example", "active")
        assert.strictEqual((yield* Effect.flip(insert("A@B.EXAMPLE", "active"))).reason._tag, "UniqueViolation")
        assert.strictEqual((yield* Effect.flip(insert("c@d.example", "deleted"))).reason._tag, "ConstraintError")
      }))
  })
})
