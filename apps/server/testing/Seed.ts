import type pg from "pg"

/**
 * Real-money history seeded with direct SQL (a test and bench shortcut, as bench/reports.ts does): sessions, settled
 * rounds of 1.00 (every other one won 2.00) and their ledger entries, each round carrying its ledger sums (what
 * migration 0010's trigger keeps). Triggers and row-by-row foreign-key checks are off while seeding (a superuser's
 * `session_replication_role`); the rows reference what the same statements create.
 */
export interface SeedOptions {
  readonly merchantId: number
  /** Rounds, spread evenly over the day before `before`. */
  readonly rounds: number
  /** Distinct players (one session each); round `g` is player `g % players`'s. */
  readonly players: number
  /** Length of each player id (`p-<n>` padded with `x`), at most 128. */
  readonly idLength?: number
  readonly before: Date
  readonly currency?: string
}

/** Seeds `rounds` settled real rounds of `players` players of the merchant, in batches of 50,000 rounds. */
export const seedRounds = async (db: pg.Client, options: SeedOptions): Promise<void> => {
  const { merchantId, rounds, players, before } = options
  const idLength = options.idLength ?? 24
  const currency = options.currency ?? "ETB"
  await db.query("SET session_replication_role = replica")
  try {
    await db.query(
      `CREATE TEMP TABLE IF NOT EXISTS seed_sessions (n bigint, id uuid);
       TRUNCATE seed_sessions`
    )
    await db.query(
      `WITH made AS (
         INSERT INTO game_sessions (id, token_hash, merchant_id, player_id, game_id, operator_session_id, currency, mode,
           lobby, created_at, expires_at)
         SELECT gen_random_uuid(), sha256(convert_to(gen_random_uuid()::text, 'UTF8')), $1,
           rpad('p-' || $5::text || '-' || p, $2::int, 'x'), 'odd-even', 'seed-' || p, $4, 'real', true,
           $3::timestamptz - interval '2 days', $3::timestamptz + interval '1 day'
         FROM generate_series(0, $6::int - 1) p
         RETURNING id, operator_session_id
       )
       INSERT INTO seed_sessions SELECT substr(operator_session_id, 6)::bigint, id FROM made`,
      [merchantId, idLength, before, currency, merchantId, players]
    )
    await db.query("CREATE INDEX IF NOT EXISTS seed_sessions_n ON seed_sessions (n)")
    await db.query("ANALYZE seed_sessions")
    for (let first = 0; first < rounds; first += 50_000) {
      const count = Math.min(50_000, rounds - first)
      await db.query(
        `WITH inserted AS (
           INSERT INTO rounds (id, session_id, merchant_id, stake_minor, selection, status, outcome, payout_minor, debit_id,
             created_at, updated_at, game_id, mode, ledger_debit_minor, ledger_credit_minor, ledger_refund_minor,
             ledger_entries)
           SELECT gen_random_uuid(), s.id, $1, 100, '"odd"', 'settled', '{}', CASE WHEN g % 2 = 0 THEN 200 ELSE 0 END,
             gen_random_uuid(), c.t, c.t, CASE g % 3 WHEN 0 THEN 'odd-even' WHEN 1 THEN 'under-over' ELSE 'lotto' END,
             'real', 100, CASE WHEN g % 2 = 0 THEN 200 ELSE 0 END, 0, 2
           FROM generate_series($2::bigint, $2::bigint + $3::bigint - 1) g
           JOIN seed_sessions s ON s.n = g % $4
           CROSS JOIN LATERAL (SELECT $5::timestamptz - interval '1 second' - interval '86398 seconds' * (g::float8 / $6) AS t) c
           RETURNING id, debit_id, payout_minor, created_at
         )
         INSERT INTO ledger_entries (round_id, transaction_id, kind, amount_minor, currency, created_at)
         SELECT r.id, CASE WHEN k.kind = 'debit' THEN r.debit_id ELSE gen_random_uuid() END, k.kind,
           CASE WHEN k.kind = 'credit' THEN r.payout_minor ELSE 100 END, $7, r.created_at
         FROM inserted r CROSS JOIN (VALUES ('debit'), ('credit')) AS k (kind)`,
        [merchantId, first, count, players, before, rounds, currency]
      )
    }
  } finally {
    await db.query("SET session_replication_role = DEFAULT")
  }
  await db.query("ANALYZE rounds, ledger_entries, game_sessions")
}

/** `players` players of the merchant with one round each (the summary's worst case by player). */
export const seedPlayers = (
  db: pg.Client,
  options: { readonly merchantId: number; readonly players: number; readonly idLength?: number; readonly before: Date }
) => seedRounds(db, { ...options, rounds: options.players })
