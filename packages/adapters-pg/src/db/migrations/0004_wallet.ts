import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Game sessions and the seamless wallet (CONTRACT §5, §6): launch tokens
 * redeemed once, sessions found by the SHA-256 of their opaque token,
 * rounds, the append-only ledger, and the transactional outbox of webhook
 * messages. Every insert of a pending message, and every message put back to
 * pending, notifies `gateway_outbox` at commit.
 */
export const m0004_wallet = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE launch_redemptions (
      jti uuid PRIMARY KEY,
      redeemed_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE game_sessions (
      id uuid PRIMARY KEY,
      token_hash bytea NOT NULL UNIQUE,
      merchant_id integer NOT NULL REFERENCES merchants (id),
      player_id text NOT NULL,
      game_id text NOT NULL,
      operator_session_id text NOT NULL,
      currency text NOT NULL,
      mode text NOT NULL CHECK (mode IN ('real', 'demo')),
      lobby boolean NOT NULL,
      demo_balance_minor bigint CHECK (demo_balance_minor >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      CHECK ((mode = 'demo') = (demo_balance_minor IS NOT NULL))
    )`
  yield* sql`CREATE INDEX game_sessions_expires_idx ON game_sessions (expires_at)`
  yield* sql`
    CREATE TABLE rounds (
      id uuid PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES game_sessions (id),
      merchant_id integer NOT NULL REFERENCES merchants (id),
      stake_minor bigint NOT NULL CHECK (stake_minor > 0),
      selection text NOT NULL,
      status text NOT NULL CHECK (status IN ('debiting', 'settled', 'refused', 'failed')),
      outcome text,
      payout_minor bigint CHECK (payout_minor >= 0),
      debit_id uuid NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX rounds_session_idx ON rounds (session_id)`
  yield* sql`CREATE INDEX rounds_debiting_idx ON rounds (created_at) WHERE status = 'debiting'`
  yield* sql`
    CREATE TABLE ledger_entries (
      id bigserial PRIMARY KEY,
      round_id uuid NOT NULL REFERENCES rounds (id),
      transaction_id uuid NOT NULL UNIQUE,
      kind text NOT NULL CHECK (kind IN ('debit', 'credit', 'refund')),
      amount_minor bigint NOT NULL CHECK (amount_minor >= 0),
      currency text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX ledger_entries_round_idx ON ledger_entries (round_id)`
  yield* sql`
    CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'ledger_entries is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
    END
    $$`
  yield* sql`
    CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only()`
  yield* sql`
    CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_append_only()`
  yield* sql`
    CREATE TABLE webhook_deliveries (
      id text COLLATE "C" PRIMARY KEY,
      merchant_id integer NOT NULL REFERENCES merchants (id),
      type text NOT NULL,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      lease_until timestamptz NULL,
      last_error text,
      last_status integer NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz,
      failed_at timestamptz
    )`
  yield* sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (status, next_attempt_at) WHERE status = 'pending'`
  yield* sql`
    CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (merchant_id, failed_at DESC)
    WHERE status = 'failed'`
  yield* sql`
    CREATE FUNCTION webhook_deliveries_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('gateway_outbox', '');
      RETURN NULL;
    END
    $$`
  yield* sql`
    CREATE TRIGGER webhook_deliveries_inserted AFTER INSERT ON webhook_deliveries
    FOR EACH ROW WHEN (NEW.status = 'pending') EXECUTE FUNCTION webhook_deliveries_notify()`
  yield* sql`
    CREATE TRIGGER webhook_deliveries_repending AFTER UPDATE OF status ON webhook_deliveries
    FOR EACH ROW WHEN (OLD.status <> 'pending' AND NEW.status = 'pending') EXECUTE FUNCTION webhook_deliveries_notify()`
})
