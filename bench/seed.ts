/**
 * Seeds the bench's data with direct SQL (a bench shortcut): games, clones of
 * one merchant made through the API, their settings and one API key each.
 * Run against a migrated database before the gateway that is measured starts,
 * so no cache of it holds anything older.
 */
import { createHash, randomBytes, randomInt } from "node:crypto"
import { Effect, Exit, Scope } from "effect"
import pg from "pg"

/** An API key as a client sends it, with its merchant. */
export interface SeededKey {
  readonly merchantId: number
  readonly key: string
}

/** What the runs need to know of the seeded data. */
export interface Seeded {
  /** Keys of merchants whose Details URL answers at once. */
  readonly fastKeys: ReadonlyArray<SeededKey>
  /** Keys of merchants whose Details URL answers after 20 ms. */
  readonly slowKeys: ReadonlyArray<SeededKey>
  /** The merchant whose webhook URL is the stub's `/wallet-slow` (answering after 20 ms): the last one. */
  readonly slowWalletMerchant: number
  /** Ids of the seeded games (all launchable). */
  readonly gameIds: ReadonlyArray<string>
}

const words = [
  "Lucky Dragon", "Golden Sphinx", "Star Burst", "Wild Safari", "Nile Treasure", "Coffee Spin",
  "Lion of Judah", "Blue Horizon", "Fruit Fiesta", "Rocket Crash", "Desert Gold", "Jackpot Valley"
]

const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
const slug = (): string => Array.from({ length: 12 }, () => alphabet[randomInt(alphabet.length)]).join("")

/** A key `sv_live.<secret>.<slug>` and the SHA-256 of its secret, as the gateway stores it. */
const newKey = () => {
  const secret = randomBytes(32).toString("base64url")
  const id = slug()
  return { slug: id, key: `sv_live.${secret}.${id}`, hashHex: createHash("sha256").update(secret, "utf8").digest("hex") }
}

const insertGames = (client: pg.Client, count: number) =>
  client.query(
    `INSERT INTO games (id, name, release_date, base_launch_url, category, image_url)
     SELECT 'game-' || lpad(g::text, 5, '0'),
            'Game ' || lpad(g::text, 5, '0') || ' ' || ($2::text[])[1 + g % array_length($2::text[], 1)],
            to_char(date '2015-01-01' + (g * 37) % 3650, 'YYYY-MM-DD'),
            'https://play.bench.example/games/game-' || lpad(g::text, 5, '0'),
            g % 7,
            'https://cdn.bench.example/games/game-' || lpad(g::text, 5, '0') || '.svg'
     FROM generate_series(1, $1::int) g`,
    [count, words]
  )

/** Clones merchant `first` (same encrypted keys, new email and client id) until there are `count`; returns every id. */
const cloneMerchants = async (client: pg.Client, first: number, count: number): Promise<Array<number>> => {
  await client.query(
    `INSERT INTO merchants (email, company_name, country, currency, account_status, client_id, hashed_client_id,
       phone_number, provider_id, public_key, private_key_enc, encryption_key_enc, password_hash, otp_hash,
       is_default_password, verified_email)
     SELECT 'bench-' || c.n || '@bench.example', 'Bench Operator ' || c.n, m.country, m.currency, 'active', c.id,
            encode(sha256(convert_to(c.id::text, 'UTF8')), 'hex'), '', m.provider_id, m.public_key,
            m.private_key_enc, m.encryption_key_enc, m.password_hash, m.otp_hash, true, false
     FROM merchants m
     CROSS JOIN (SELECT n, gen_random_uuid() AS id FROM generate_series(2, $2::int) n) c
     WHERE m.id = $1
     ORDER BY c.n`,
    [first, count]
  )
  const rows = await client.query<{ id: number }>("SELECT id FROM merchants ORDER BY id")
  return rows.rows.map((row) => row.id)
}

/**
 * Seeds `games` games and `merchants` merchants (the first made through the
 * API, id `first`). The first half of the merchants have their Details URL at
 * the stub's `/details`, the second half at `/details-slow`; all but the last
 * send wallet messages to its `/wallet`, the last to `/wallet-slow`.
 */
export const seed = async (
  databaseUrl: string,
  options: { readonly first: number; readonly merchants: number; readonly games: number; readonly operatorUrl: string }
): Promise<Seeded> => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query("BEGIN")
    await insertGames(client, options.games)
    const ids = await cloneMerchants(client, options.first, options.merchants)
    const fast = ids.slice(0, Math.ceil(ids.length / 2))
    const slowWalletMerchant = ids[ids.length - 1] ?? options.first
    await client.query(
      `INSERT INTO merchant_settings (merchant_id) SELECT id FROM merchants
       WHERE id NOT IN (SELECT merchant_id FROM merchant_settings)`
    )
    await client.query(
      `UPDATE merchant_settings SET webhook_url = CASE WHEN merchant_id = $5 THEN $1 || '-slow' ELSE $1 END,
         user_details_url = CASE WHEN merchant_id = ANY($2::int[]) THEN $3 ELSE $4 END, updated_at = now()`,
      [`${options.operatorUrl}/wallet`, fast, `${options.operatorUrl}/details`, `${options.operatorUrl}/details-slow`, slowWalletMerchant]
    )
    const keys = ids.map((merchantId) => ({ merchantId, ...newKey() }))
    await client.query(
      `INSERT INTO api_keys (slug, merchant_id, prefix, secret_hash)
       SELECT s, m, 'sv_live', decode(h, 'hex') FROM unnest($1::text[], $2::int[], $3::text[]) AS k(s, m, h)`,
      [keys.map((k) => k.slug), keys.map((k) => k.merchantId), keys.map((k) => k.hashHex)]
    )
    await client.query("COMMIT")
    await client.query("ANALYZE")
    const fastSet = new Set(fast)
    const seeded = keys.map(({ key, merchantId }) => ({ key, merchantId }))
    return {
      fastKeys: seeded.filter((k) => fastSet.has(k.merchantId)),
      slowKeys: seeded.filter((k) => !fastSet.has(k.merchantId)),
      slowWalletMerchant,
      gameIds: Array.from({ length: options.games }, (_, i) => `game-${String(i + 1).padStart(5, "0")}`)
    }
  } finally {
    await client.end()
  }
}

/** The server's version (`server_version`). */
export const serverVersion = async (databaseUrl: string): Promise<string> => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const rows = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")
    return rows.rows[0]?.v ?? "?"
  } finally {
    await client.end()
  }
}

/** Drops the database of `databaseUrl`, connected to the same server's `postgres` database. */
export const dropDatabase = async (databaseUrl: string): Promise<void> => {
  const url = new URL(databaseUrl)
  const name = decodeURIComponent(url.pathname.slice(1))
  url.pathname = "/postgres"
  const client = new pg.Client({ connectionString: url.href })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`)
  } finally {
    await client.end()
  }
}

/**
 * Closes the bench's scope (drops its database, stops an embedded server);
 * when that takes over 10 s — seen when PgTest's admin connection has been
 * idle for a couple of minutes: its DROP never completes — drops `databaseUrl`
 * directly.
 */
export const closeOrDrop = async (scope: Scope.Closeable, databaseUrl: string | undefined): Promise<void> => {
  let timer: NodeJS.Timeout | undefined
  const closed = await Promise.race([
    Effect.runPromise(Scope.close(scope, Exit.void)).then(() => true),
    new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), 10_000))
  ]).finally(() => clearTimeout(timer))
  if (closed || databaseUrl === undefined) return
  console.error("bench: the database scope did not close within 10 s; dropping the database directly")
  await dropDatabase(databaseUrl).catch((e: unknown) => console.error(e))
}
