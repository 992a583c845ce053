import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The merchant back office (CONTRACT §9): its users, their sessions, mailed
 * one-time codes and failed sign-ins. Every merchant has an `owner` user with
 * the merchant's e-mail and generated password (copied here from the
 * merchant row: for the merchants that exist, and by a trigger for every new
 * one, so the create path is unchanged); its verification code is the
 * `otpToken` of create, valid 15 minutes from the merchant's creation.
 * (The create answer's code was not mailed: `resend` may mail one at once.)
 * E-mails are unique across users, as they are across merchants. Session ids
 * and codes are stored only as digests or slow hashes; the TOTP secret is
 * encrypted with DATA_ENCRYPTION_KEY.
 */
export const m0016_backoffice_users = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE backoffice_users (
      id serial PRIMARY KEY,
      merchant_id integer NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'developer', 'finance', 'support')),
      password_hash text,
      is_default_password boolean NOT NULL DEFAULT false,
      verified_email boolean NOT NULL DEFAULT false,
      totp_secret_enc text,
      totp_enabled boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX backoffice_users_email_key ON backoffice_users (lower(email))`
  yield* sql`CREATE INDEX backoffice_users_merchant_idx ON backoffice_users (merchant_id)`
  yield* sql`
    CREATE TABLE backoffice_sessions (
      id text COLLATE "C" PRIMARY KEY,
      user_id integer NOT NULL REFERENCES backoffice_users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX backoffice_sessions_user_idx ON backoffice_sessions (user_id)`
  yield* sql`
    CREATE TABLE backoffice_codes (
      user_id integer NOT NULL REFERENCES backoffice_users (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('verify-email', 'password-reset', 'invitation')),
      code_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      tries_left integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, purpose)
    )`
  yield* sql`
    CREATE TABLE backoffice_login_failures (
      key text COLLATE "C" PRIMARY KEY,
      failures integer NOT NULL,
      last_failed_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE FUNCTION merchants_backoffice_owner() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      WITH owner AS (
        INSERT INTO backoffice_users (merchant_id, email, role, password_hash, is_default_password, verified_email)
        VALUES (NEW.id, NEW.email, 'owner', NEW.password_hash, NEW.is_default_password, NEW.verified_email)
        RETURNING id
      )
      INSERT INTO backoffice_codes (user_id, purpose, code_hash, expires_at, tries_left, created_at)
      SELECT id, 'verify-email', NEW.otp_hash, NEW.created_at + interval '15 minutes', 5, '-infinity' FROM owner;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER merchants_backoffice_owner AFTER INSERT ON merchants
    FOR EACH ROW EXECUTE FUNCTION merchants_backoffice_owner()`
  yield* sql`
    INSERT INTO backoffice_users (merchant_id, email, role, password_hash, is_default_password, verified_email)
    SELECT id, email, 'owner', password_hash, is_default_password, verified_email FROM merchants ORDER BY id`
  yield* sql`
    INSERT INTO backoffice_codes (user_id, purpose, code_hash, expires_at, tries_left, created_at)
    SELECT u.id, 'verify-email', m.otp_hash, m.created_at + interval '15 minutes', 5, '-infinity'
    FROM backoffice_users u JOIN merchants m ON m.id = u.merchant_id
    WHERE NOT m.verified_email`
})
