import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The audit log of administrative changes (CONTRACT §9) and the secrets a
 * rotation keeps for its overlap.
 *
 * `audit_log` is append-only: a trigger refuses every UPDATE and DELETE (and
 * TRUNCATE), whoever asks. Each row is written in the transaction of the
 * change it records: who (`actor`, the bearer's subject or `cli`), from which
 * address, what (`action`), and the values before and after as JSON, with
 * secrets only ever named (`"rotated"`, `"revealed"`), never their values.
 *
 * A rotated `encryptionKey` or Ed25519 pair stays, encrypted like the current
 * one, as the merchant's previous secret until `…_until`: calls are signed
 * with both until then, with the new one alone after.
 */
export const m0015_audit_log = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE audit_log (
      id bigserial PRIMARY KEY,
      merchant_id integer NOT NULL,
      at timestamptz NOT NULL DEFAULT now(),
      actor text NOT NULL,
      address text NULL,
      action text NOT NULL,
      before jsonb NULL,
      after jsonb NULL
    )`
  yield* sql`CREATE INDEX audit_log_merchant_idx ON audit_log (merchant_id, id DESC)`
  yield* sql`
    CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END
    $$`
  yield* sql`
    CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`
  yield* sql`
    CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`
  yield* sql`
    ALTER TABLE merchants
      ADD COLUMN previous_encryption_key_enc text NULL,
      ADD COLUMN previous_encryption_key_until timestamptz NULL,
      ADD COLUMN previous_private_key_enc text NULL,
      ADD COLUMN previous_public_key text NULL,
      ADD COLUMN previous_signing_key_until timestamptz NULL`
})
