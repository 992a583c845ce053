import { Array as Arr, Effect } from "effect"
import { builtinGames } from "@gateway/domain/BuiltinGames"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Merchants with their settings, API keys and the games catalogue, listing
 * the domain's built-in games. Their launch URL is not stored
 * (`base_launch_url` is NULL) but derived from `PUBLIC_BASE_URL` as
 * `<PUBLIC_BASE_URL>/play/<id>`; `image_url` is a path relative to the
 * gateway (`/static/games/<id>.svg`), served by the HTTP adapter. Text that
 * is sorted or compared byte-wise uses the "C" collation so that order is the
 * same on every server.
 */
export const m0001_core = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE merchants (
      id serial PRIMARY KEY,
      email text NOT NULL,
      company_name text NOT NULL,
      country text NOT NULL,
      currency text NOT NULL,
      account_status text NOT NULL DEFAULT 'active' CHECK (account_status IN ('active', 'suspended', 'closed')),
      client_id uuid NOT NULL UNIQUE,
      hashed_client_id text NOT NULL,
      phone_number text NOT NULL DEFAULT '',
      provider_id integer NOT NULL,
      public_key text NOT NULL,
      private_key_enc text NOT NULL,
      encryption_key_enc text NOT NULL,
      password_hash text NOT NULL,
      otp_hash text NOT NULL,
      is_default_password boolean NOT NULL DEFAULT true,
      verified_email boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX merchants_email_lower_key ON merchants (lower(email))`
  yield* sql`
    CREATE TABLE merchant_settings (
      id serial PRIMARY KEY,
      merchant_id integer NOT NULL UNIQUE REFERENCES merchants (id) ON DELETE CASCADE,
      agent_percent_profit double precision,
      callback_url text,
      color_game_profit double precision,
      cup_image_url text,
      font_family_url text,
      hide_balance boolean,
      logo1x_url text,
      logo2x_url text,
      minimum_stake double precision,
      maximum_stake double precision,
      lotto_game_profit double precision,
      mega_ten_game_profit double precision,
      merchant_percent_profit double precision,
      odd_even_game_profit double precision,
      provider_percent_profit double precision,
      shop_details_url text,
      single_game_profit double precision,
      super_provider_percent_profit double precision,
      under_over_game_profit double precision,
      user_details_url text,
      user_percent_profit double precision,
      webhook_url text,
      credit_webhook_url text,
      debit_webhook_url text,
      refund_webhook_url text,
      is_seperate_webhook_url boolean,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE api_keys (
      slug text COLLATE "C" PRIMARY KEY,
      merchant_id integer NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
      prefix text NOT NULL,
      secret_hash bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX api_keys_merchant_idx ON api_keys (merchant_id)`
  yield* sql`
    CREATE TABLE games (
      id text COLLATE "C" PRIMARY KEY,
      name text COLLATE "C" NOT NULL,
      release_date text COLLATE "C" NOT NULL,
      base_launch_url text,
      category integer NOT NULL,
      image_url text NOT NULL,
      builtin boolean NOT NULL DEFAULT false,
      retired_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX games_listed_name_idx ON games (lower(name), id) WHERE retired_at IS NULL`
  yield* sql`CREATE INDEX games_listed_release_date_idx ON games (release_date, id) WHERE retired_at IS NULL`
  yield* sql`CREATE INDEX games_listed_category_idx ON games (category, id) WHERE retired_at IS NULL`
  yield* sql`CREATE INDEX games_listed_id_idx ON games (id) WHERE retired_at IS NULL`
  yield* sql`
    INSERT INTO games ${
    sql.insert(Arr.map(builtinGames, (game) => ({
      id: game.id,
      name: game.name,
      release_date: "2024-01-01",
      base_launch_url: null,
      category: game.category,
      image_url: `/static/games/${game.id}.svg`,
      builtin: true
    })))
  }
    ON CONFLICT (id) DO NOTHING`
})
