import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import * as Migrator from "effect/sql/Migrator"
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
        assert.deepStrictEqual(
          applied.map((row) => row["migration_id"]),
          Object.keys(Migrations.migrations).map((key) => Number(key.slice(0, 4))).sort((a, b) => a - b)
        )
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

  layer(PgTest.layerEmpty)((it) => {
    it.effect("0007 makes the stake limits exact numerics, rounded half up to the merchant currency's digits", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const released = Object.fromEntries(Object.entries(Migrations.migrations).filter(([key]) => key < "0007"))
        yield* Migrator.make({})({ loader: Migrator.fromRecord(released), table: "gateway_migrations" })
        const merchant = (email: string, currency: string, minimum: number | null, maximum: number | null) =>
          sql`WITH m AS (
              INSERT INTO merchants (email, company_name, country, currency, client_id, hashed_client_id, provider_id,
                public_key, private_key_enc, encryption_key_enc, password_hash, otp_hash)
              VALUES (${email}, 'c', 'XX', ${currency}, gen_random_uuid(), 'h', 1, 'pk', 'x', 'y', 'p', 'o')
              RETURNING id)
            INSERT INTO merchant_settings (merchant_id, minimum_stake, maximum_stake)
            SELECT id, ${minimum}::float8, ${maximum}::float8 FROM m`
        yield* merchant("eur@x.example", "EUR", 0.125, 2.675)
        yield* merchant("tiny@x.example", "EUR", 0.001, 1e20)
        yield* merchant("sum@x.example", "USD", 0.1 + 0.2, 100)
        yield* merchant("jpy@x.example", "JPY", 1.5, 100.4)
        yield* merchant("kwd@x.example", "KWD", 0.0005, 0.1235)
        yield* merchant("etb@x.example", "ETB", 1, 500)
        yield* merchant("none@x.example", "EUR", null, null)

        assert.deepStrictEqual((yield* Migrations.run).map(([id]) => id),
          Object.keys(Migrations.migrations).filter((key) => key >= "0007").map((key) => Number(key.slice(0, 4))))
        const types = yield* sql<{ readonly column_name: string; readonly data_type: string }>`
          SELECT column_name, data_type FROM information_schema.columns
          WHERE table_name = 'merchant_settings' AND column_name IN ('minimum_stake', 'maximum_stake') ORDER BY column_name`
        assert.deepStrictEqual(types.map((t) => [t.column_name, t.data_type]), [
          ["maximum_stake", "numeric"],
          ["minimum_stake", "numeric"]
        ])
        const rows = yield* sql<{ readonly email: string; readonly min: string | null; readonly max: string | null }>`
          SELECT m.email, s.minimum_stake::text AS min, s.maximum_stake::text AS max
          FROM merchants m JOIN merchant_settings s ON s.merchant_id = m.id ORDER BY m.id`
        assert.deepStrictEqual(rows.map((r) => [r.email, r.min, r.max]), [
          ["eur@x.example", "0.13", "2.68"],
          ["tiny@x.example", "0.01", "9999999999999.99"],
          ["sum@x.example", "0.30", "100.00"],
          ["jpy@x.example", "2", "100"],
          ["kwd@x.example", "0.001", "0.124"],
          ["etb@x.example", "1.00", "500.00"],
          ["none@x.example", null, null]
        ])
        const json = yield* sql<{ readonly settings: { readonly minimum_stake: unknown } }>`
          SELECT to_jsonb(s) AS settings FROM merchant_settings s JOIN merchants m ON m.id = s.merchant_id
          WHERE m.email = 'eur@x.example'`
        assert.strictEqual(json[0]?.settings.minimum_stake, 0.13)
      }))
  })

  layer(PgTest.layerEmpty)((it) => {
    it.effect("0008 gives open sessions committed seeds and turns old rounds' selection and outcome into JSON", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const released = Object.fromEntries(Object.entries(Migrations.migrations).filter(([key]) => key < "0008"))
        yield* Migrator.make({})({ loader: Migrator.fromRecord(released), table: "gateway_migrations" })
        yield* sql`
          WITH m AS (
            INSERT INTO merchants (email, company_name, country, currency, client_id, hashed_client_id, provider_id,
              public_key, private_key_enc, encryption_key_enc, password_hash, otp_hash)
            VALUES ('old@x.example', 'c', 'XX', 'ETB', gen_random_uuid(), 'h', 1, 'pk', 'x', 'y', 'p', 'o')
            RETURNING id
          ), s AS (
            INSERT INTO game_sessions (id, token_hash, merchant_id, player_id, game_id, operator_session_id, currency,
              mode, lobby, expires_at)
            SELECT '00000000-0000-4000-8000-000000000001', '\\x01', id, 'p', 'odd-even', 'op', 'ETB', 'real', true,
              now() + interval '1 hour' FROM m
            RETURNING id, merchant_id
          )
          INSERT INTO rounds (id, session_id, merchant_id, stake_minor, selection, status, outcome, payout_minor, debit_id)
          SELECT '00000000-0000-4000-8000-000000000002', s.id, s.merchant_id, 100, 'odd', 'settled', '17 odd', 195,
            gen_random_uuid() FROM s`

        assert.deepStrictEqual((yield* Migrations.run).map(([id]) => id),
          Object.keys(Migrations.migrations).filter((key) => key >= "0008").map((key) => Number(key.slice(0, 4))))
        const [session] = yield* sql<{ readonly seed: string; readonly hash: string; readonly client: string; readonly nonce: string }>`
          SELECT server_seed AS seed, server_seed_hash AS hash, client_seed AS client, nonce::text AS nonce FROM game_sessions`
        assert.match(session?.seed ?? "", /^[0-9a-f]{64}$/)
        assert.strictEqual(session?.hash, createHash("sha256").update(session?.seed ?? "").digest("hex"))
        assert.match(session?.client ?? "", /^[0-9a-f]{16}$/)
        assert.strictEqual(session?.nonce, "0")
        const [round] = yield* sql<{ readonly game_id: string; readonly mode: string; readonly selection: string; readonly outcome: string }>`
          SELECT game_id, mode, selection, outcome FROM rounds`
        assert.deepStrictEqual(
          { ...round, selection: JSON.parse(round?.selection ?? ""), outcome: JSON.parse(round?.outcome ?? "") },
          { game_id: "odd-even", mode: "real", selection: "odd", outcome: { summary: "17 odd" } }
        )
      }))
  })

  layer(PgTest.layerEmpty)((it) => {
    it.effect("0010 puts each old round's ledger sums on the round and keeps them from then on", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const released = Object.fromEntries(Object.entries(Migrations.migrations).filter(([key]) => key < "0010"))
        yield* Migrator.make({})({ loader: Migrator.fromRecord(released), table: "gateway_migrations" })
        const round = (n: number) => `00000000-0000-4000-8000-00000000010${n}`
        yield* sql`
          WITH m AS (
            INSERT INTO merchants (email, company_name, country, currency, client_id, hashed_client_id, provider_id,
              public_key, private_key_enc, encryption_key_enc, password_hash, otp_hash)
            VALUES ('old@x.example', 'c', 'XX', 'ETB', gen_random_uuid(), 'h', 1, 'pk', 'x', 'y', 'p', 'o')
            RETURNING id
          ), s AS (
            INSERT INTO game_sessions (id, token_hash, merchant_id, player_id, game_id, operator_session_id, currency,
              mode, lobby, expires_at)
            SELECT '00000000-0000-4000-8000-000000000001', '\\x01', id, 'p', 'odd-even', 'op', 'ETB', 'real', true,
              now() + interval '1 hour' FROM m
            RETURNING id, merchant_id
          )
          INSERT INTO rounds (id, session_id, merchant_id, game_id, stake_minor, selection, status, debit_id)
          SELECT r.id::uuid, s.id, s.merchant_id, 'odd-even', 100, '"odd"', r.status, gen_random_uuid()
          FROM s CROSS JOIN (VALUES (${round(1)}, 'settled'), (${round(2)}, 'failed'), (${round(3)}, 'refused'))
            AS r (id, status)`
        yield* sql`
          INSERT INTO ledger_entries (round_id, transaction_id, kind, amount_minor, currency)
          VALUES (${round(1)}, gen_random_uuid(), 'debit', 100, 'ETB'), (${round(1)}, gen_random_uuid(), 'credit', 9223372036854775807, 'ETB'),
            (${round(1)}, gen_random_uuid(), 'credit', 9223372036854775807, 'ETB'), (${round(1)}, gen_random_uuid(), 'credit', 7, 'EUR'),
            (${round(2)}, gen_random_uuid(), 'refund', 100, 'ETB')`

        assert.deepStrictEqual((yield* Migrations.run).map(([id]) => id).slice(0, 1), [10], "0010 runs on the old data first")
        const sums = () =>
          sql<{ readonly id: string; readonly sums: string }>`
            SELECT id::text AS id,
              concat_ws(' ', ledger_debit_minor, ledger_credit_minor, ledger_refund_minor, ledger_entries) AS sums
            FROM rounds ORDER BY id`
        assert.deepStrictEqual((yield* sums()).map((row) => row.sums), [
          "100 18446744073709551614 0 3",
          "0 0 100 1",
          "0 0 0 0"
        ])
        yield* sql`INSERT INTO ledger_entries (round_id, transaction_id, kind, amount_minor, currency)
          VALUES (${round(3)}, gen_random_uuid(), 'refund', 5, 'ETB')`
        assert.deepStrictEqual((yield* sums()).map((row) => row.sums).at(-1), "0 0 5 1")
        const [index] = yield* sql<{ readonly indexdef: string }>`
          SELECT indexdef FROM pg_indexes WHERE indexname = 'rounds_merchant_created_idx'`
        assert.include(index?.indexdef ?? "", "(merchant_id, created_at DESC, id DESC) INCLUDE (mode, game_id, session_id")
      }))
  })
})
