/**
 * The baseline's real round (`POST /api/v1.1/game-api/rounds`), the plain
 * implementation of the work the gateway does for one, on the same
 * database: the bearer's SHA-256 looked up (the session, joined with its
 * merchant's settings), the stake checked, the session's nonce taken and the
 * round written as `debiting` (one statement, before the debit: a crash
 * leaves a record to refund), the debit signed (v1 HMAC and v1a Ed25519) and
 * POSTed over a keep-alive agent, the HMAC draw of odd-even, one transaction
 * settling the round with its two ledger rows and the credit in an outbox
 * table, the answer; then the credit is sent and marked delivered.
 *
 * Its own tables (`plain_rounds`, `plain_ledger`, `plain_outbox`), created at
 * start; sessions are the gateway's `game_sessions` (opened through launches).
 * What a plain server holds after start-up: the merchants' signing keys
 * parsed (baseline-keys.ts), a pool, a keep-alive agent.
 */
import { createHash, createHmac, randomUUID } from "node:crypto"
import { Agent, request } from "node:http"
import type pg from "pg"
import { signMessage } from "@gateway/adapters-operator/webhooks/Signature"
import type { KeyStore } from "./baseline-keys.ts"
import { invalid, Problem } from "./baseline-http.ts"

/** What a round needs besides the database. */
export interface BetContext {
  readonly pool: pg.Pool
  readonly keys: KeyStore
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 })
const walletTimeoutMs = 5000

/** The baseline's tables, created once at start. */
export const createBetTables = (pool: pg.Pool) =>
  pool.query(`
    CREATE TABLE IF NOT EXISTS plain_rounds (
      id uuid PRIMARY KEY, session_id uuid NOT NULL, merchant_id int NOT NULL, game_id text NOT NULL,
      stake_minor bigint NOT NULL, selection text NOT NULL, status text NOT NULL, debit_id uuid NOT NULL,
      outcome text, payout_minor bigint, server_seed_hash text NOT NULL, client_seed text NOT NULL, nonce bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS plain_ledger (
      id bigserial PRIMARY KEY, round_id uuid NOT NULL, transaction_id uuid NOT NULL UNIQUE, kind text NOT NULL,
      amount_minor bigint NOT NULL, currency text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS plain_outbox (
      id uuid PRIMARY KEY, merchant_id int NOT NULL, type text NOT NULL, body text NOT NULL,
      status text NOT NULL DEFAULT 'pending', created_at timestamptz NOT NULL DEFAULT now(), delivered_at timestamptz);
    CREATE INDEX IF NOT EXISTS plain_outbox_pending ON plain_outbox (created_at) WHERE status = 'pending'`)

const post = (url: string, body: string, headers: Record<string, string>) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      agent,
      timeout: walletTimeoutMs,
      headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) }
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", reject)
    })
    req.on("timeout", () => req.destroy(new Error("wallet time-out")))
    req.on("error", reject)
    req.end(body)
  })

interface SessionRow {
  readonly id: string
  readonly merchant_id: number
  readonly player_id: string
  readonly game_id: string
  readonly operator_session_id: string
  readonly currency: string
  /** numeric, as text. */
  readonly minimum_stake: string | null
  readonly maximum_stake: string | null
  readonly webhook_url: string | null
}

/** `12.50` → 1250n (two minor digits, as ETB has), or a 400. */
const stakeOf = (text: unknown): bigint => {
  if (typeof text !== "string" || !/^\d{1,12}(\.\d{1,2})?$/.test(text)) throw invalid("stake", "must be a decimal string")
  const [whole = "0", fraction = ""] = text.split(".")
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0"))
}

const format = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, "0")}`

const transaction = (
  type: string, transactionId: string, session: SessionRow, roundId: string, amount: bigint, closed: boolean,
  ref?: string
) =>
  JSON.stringify({
    type,
    timestamp: new Date().toISOString(),
    data: {
      transactionId, ...(ref === undefined ? {} : { refTransactionId: ref }), roundId, roundClosed: closed,
      merchantId: session.merchant_id, playerId: session.player_id, sessionId: session.operator_session_id,
      gameId: session.game_id, amount: format(amount), currency: session.currency
    }
  })

const send = async (context: BetContext, url: string, merchantId: number, id: string, body: string) => {
  const keys = await context.keys.get(merchantId)
  if (keys === undefined) throw new Problem(404, "MERCHANT_NOT_FOUND", "no keys for the merchant")
  return post(url, body, { ...signMessage(keys, id, Math.floor(Date.now() / 1000), body) })
}

/** After the answer: the credit sent and marked delivered (a failure leaves it pending for a retry worker). */
const deliver = async (context: BetContext, url: string, merchantId: number, id: string, body: string) => {
  const answer = await send(context, url, merchantId, id, body)
  if (answer.status >= 200 && answer.status < 300) {
    await context.pool.query("UPDATE plain_outbox SET status = 'delivered', delivered_at = now() WHERE id = $1", [id])
  }
}

/** `POST /api/v1.1/game-api/rounds` of odd-even in real mode: `{roundId, gameId, outcome, payout, balance, fairness}`. */
export const bet = async (context: BetContext, authorization: string | undefined, text: string) => {
  const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1]
  if (token === undefined) throw new Problem(401, "SESSION_EXPIRED", "no session token")
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw invalid("body", "must be JSON")
  }
  if (typeof body !== "object" || body === null || !("stake" in body) || !("selection" in body)) {
    throw invalid("body", "stake and selection are required")
  }
  const stake = stakeOf(body.stake)
  const selection = body.selection
  if (selection !== "odd" && selection !== "even") throw invalid("selection", "must be odd or even")
  const { rows: sessions } = await context.pool.query<SessionRow>(
    `SELECT s.id, s.merchant_id, s.player_id, s.game_id, s.operator_session_id, s.currency,
       ms.minimum_stake, ms.maximum_stake, ms.webhook_url
     FROM game_sessions s JOIN merchants m ON m.id = s.merchant_id JOIN merchant_settings ms ON ms.merchant_id = s.merchant_id
     WHERE s.token_hash = $1 AND s.expires_at > now() AND s.mode = 'real' AND m.account_status = 'active'`,
    [createHash("sha256").update(token).digest()]
  )
  const session = sessions[0]
  if (session === undefined) throw new Problem(401, "SESSION_EXPIRED", "unknown or expired session")
  const minimum = BigInt(Math.round(Number(session.minimum_stake ?? 0) * 100))
  const maximum = session.maximum_stake === null ? 10n ** 14n : BigInt(Math.round(Number(session.maximum_stake) * 100))
  if (stake <= 0n || stake < minimum || stake > maximum) throw invalid("stake", "out of the merchant's bounds")
  if (session.webhook_url === null) throw new Problem(422, "WEBHOOK_URL_NOT_SET", "no webhook URL")

  const roundId = randomUUID()
  const debitId = randomUUID()
  const { rows: begun } = await context.pool.query<
    { server_seed: string; server_seed_hash: string; client_seed: string; nonce: string }
  >(
    `WITH n AS (
       UPDATE game_sessions SET nonce = nonce + 1 WHERE id = $1
       RETURNING server_seed, server_seed_hash, client_seed, nonce - 1 AS nonce)
     INSERT INTO plain_rounds (id, session_id, merchant_id, game_id, stake_minor, selection, status, debit_id,
       server_seed_hash, client_seed, nonce)
     SELECT $2, $1, $3, $4, $5, $6, 'debiting', $7, server_seed_hash, client_seed, nonce FROM n
     RETURNING (SELECT server_seed FROM n), server_seed_hash, client_seed, nonce`,
    [session.id, roundId, session.merchant_id, session.game_id, stake, JSON.stringify(selection), debitId]
  )
  const seed = begun[0]
  if (seed === undefined) throw new Error("the round was not written")

  const debitBody = transaction("transaction.debit", debitId, session, roundId, stake, false)
  const debited = await send(context, session.webhook_url, session.merchant_id, debitId, debitBody).catch(() => undefined)
  if (debited === undefined || debited.status < 200 || debited.status >= 300) {
    await context.pool.query("UPDATE plain_rounds SET status = 'failed', updated_at = now() WHERE id = $1", [roundId])
    throw new Problem(502, "WALLET_UNAVAILABLE", "the debit was not accepted")
  }
  const accepted: unknown = JSON.parse(debited.text)
  const balance = stakeOf(typeof accepted === "object" && accepted !== null && "balance" in accepted ? accepted.balance : "")

  const bytes = createHmac("sha256", seed.server_seed).update(`${seed.client_seed}:${seed.nonce}`).digest()
  const number = (bytes.readUInt32BE(0) % 36) + 1
  const parity = number % 2 === 1 ? "odd" : "even"
  const payout = parity === selection ? (stake * 195n) / 100n : 0n
  const outcome = { number, parity, summary: `${number} ${parity}` }
  const creditId = randomUUID()
  const creditBody = transaction("transaction.credit", creditId, session, roundId, payout, true, debitId)

  const client = await context.pool.connect()
  try {
    await client.query("BEGIN")
    await client.query(
      "UPDATE plain_rounds SET status = 'settled', outcome = $2, payout_minor = $3, updated_at = now() WHERE id = $1 AND status = 'debiting'",
      [roundId, JSON.stringify(outcome), payout]
    )
    await client.query(
      `INSERT INTO plain_ledger (round_id, transaction_id, kind, amount_minor, currency)
       VALUES ($1, $2, 'debit', $3, $5), ($1, $4, 'credit', $6, $5)`,
      [roundId, debitId, stake, creditId, session.currency, payout]
    )
    await client.query(
      "INSERT INTO plain_outbox (id, merchant_id, type, body) VALUES ($1, $2, 'transaction.credit', $3)",
      [creditId, session.merchant_id, creditBody]
    )
    await client.query("COMMIT")
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
  const url = session.webhook_url
  return {
    answer: {
      roundId,
      gameId: session.game_id,
      outcome,
      payout: format(payout),
      balance: format(balance + payout),
      fairness: { serverSeedHash: seed.server_seed_hash, clientSeed: seed.client_seed, nonce: Number(seed.nonce) }
    },
    after: () => deliver(context, url, session.merchant_id, creditId, creditBody).catch(() => undefined)
  }
}
