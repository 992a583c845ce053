import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Free rounds (CONTRACT §13).
 *
 * - `free_round_grants`: a merchant's grant of `rounds` rounds of a game to a player at a stake, lapsing at
 *   `expires_at`; `remaining` is taken down by one in the transaction that plays each round (never below 0:
 *   the `UPDATE … WHERE remaining > 0` and the CHECK), set to 0 by a cancellation. One grant per campaign, player
 *   and game: a retried grant finds the first.
 * - `rounds.free_round_grant_id`: the grant a free round was taken from. A free round is a real-money round
 *   (the operator pays its win) with no debit, so the rule "a real round has a debit" (0008) becomes "a real
 *   round has a debit or a grant", never both. Added `NOT VALID` and then validated, so the check of the
 *   existing rounds does not block bets meanwhile.
 */
export const m0019_free_rounds = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE free_round_grants (
      id uuid PRIMARY KEY,
      merchant_id integer NOT NULL REFERENCES merchants (id),
      campaign_id text NOT NULL,
      player_id text NOT NULL,
      game_id text NOT NULL,
      rounds integer NOT NULL CHECK (rounds BETWEEN 1 AND 1000),
      remaining integer NOT NULL CHECK (remaining >= 0 AND remaining <= rounds),
      stake_minor bigint NOT NULL CHECK (stake_minor > 0),
      currency text NOT NULL,
      expires_at timestamptz NOT NULL,
      cancelled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (merchant_id, player_id, game_id, campaign_id)
    )`
  yield* sql`CREATE INDEX free_round_grants_player_idx ON free_round_grants (merchant_id, player_id, created_at DESC)`
  yield* sql`ALTER TABLE rounds ADD COLUMN free_round_grant_id uuid REFERENCES free_round_grants (id)`
  yield* sql`
    DO $$
    DECLARE c text;
    BEGIN
      FOR c IN SELECT conname FROM pg_constraint
        WHERE conrelid = 'rounds'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%debit_id IS NOT NULL%'
      LOOP
        EXECUTE format('ALTER TABLE rounds DROP CONSTRAINT %I', c);
      END LOOP;
    END
    $$`
  yield* sql`
    ALTER TABLE rounds ADD CONSTRAINT rounds_real_paid_or_free
      CHECK ((mode = 'real') = (debit_id IS NOT NULL OR free_round_grant_id IS NOT NULL)
        AND (debit_id IS NULL OR free_round_grant_id IS NULL)) NOT VALID`
  yield* sql`ALTER TABLE rounds VALIDATE CONSTRAINT rounds_real_paid_or_free`
})
