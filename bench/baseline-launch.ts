/**
 * The baseline's generate-launch-url, done the straightforward way on every
 * request: game lookup, the merchant's settings read, a signed Details POST
 * (Standard Webhooks headers, under the merchant's keys parsed at start:
 * baseline-keys.ts) over a keep-alive agent, then an EdDSA launch JWT
 * (CONTRACT §3, §5).
 */
import { type KeyObject, randomUUID } from "node:crypto"
import { Agent, request } from "node:http"
import type pg from "pg"
import { SignJWT } from "jose"
import { signMessage } from "@gateway/adapters-operator/webhooks/Signature"
import { type GameRow, gameJson } from "./baseline-games.ts"
import { invalid, oneOf, Problem } from "./baseline-http.ts"
import type { KeyStore } from "./baseline-keys.ts"

/** What a launch needs besides the database. */
export interface LaunchContext {
  readonly pool: pg.Pool
  /** The merchants' signing keys, parsed at start. */
  readonly keys: KeyStore
  readonly publicBaseUrl: string
  readonly signingKey: { readonly kid: string; readonly privateKey: KeyObject }
}

const agent = new Agent({ keepAlive: true, maxSockets: 128 })
const detailsTimeoutMs = 5000

/** POSTs `body` with `headers`; the answer's status and text, or a 504/502 problem. */
const post = (url: string, body: string, headers: Record<string, string>) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      agent,
      timeout: detailsTimeoutMs,
      headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) }
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", () => reject(new Problem(502, "OPERATOR_BAD_RESPONSE", "the Details URL answer broke off")))
    })
    req.on("timeout", () => req.destroy(new Problem(504, "OPERATOR_TIMEOUT", "the Details URL did not answer in time")))
    req.on("error", (error) =>
      reject(error instanceof Problem ? error : new Problem(502, "OPERATOR_BAD_RESPONSE", "the Details URL is unreachable")))
    req.end(body)
  })

const ref = (query: URLSearchParams, name: string): string => {
  const value = query.get(name) ?? ""
  if (value === "" || value.length > 128) throw invalid(name, "must be 1 to 128 characters")
  return value
}

interface MerchantRow {
  readonly currency: string
  readonly user_details_url: string | null
}

/** The player's currency from the merchant's Details URL (422 / 502 / 504 as the contract says). */
const playerCurrency = async (
  context: LaunchContext,
  merchantId: number,
  merchant: MerchantRow,
  request: Record<string, string>
) => {
  if (merchant.user_details_url === null) {
    throw new Problem(422, "DETAILS_URL_NOT_SET", "the merchant has no userDetailsUrl")
  }
  const keys = await context.keys.get(merchantId)
  if (keys === undefined) throw new Problem(404, "MERCHANT_NOT_FOUND", "no such merchant")
  const body = JSON.stringify(request)
  const signed = signMessage(keys, `msg_${randomUUID()}`, Math.floor(Date.now() / 1000), body)
  const answer = await post(merchant.user_details_url, body, { ...signed })
  if (answer.status >= 400 && answer.status < 500) {
    throw new Problem(422, "PLAYER_REJECTED", `the operator's Details URL rejected the player (HTTP ${answer.status})`)
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw new Problem(502, "OPERATOR_BAD_RESPONSE", `the operator's Details URL answered HTTP ${answer.status}`)
  }
  let player: unknown
  try {
    player = JSON.parse(answer.text)
  } catch {
    player = undefined
  }
  if (
    typeof player !== "object" || player === null || !("playerId" in player) || player.playerId !== request["playerId"] ||
    !("currency" in player) || typeof player.currency !== "string" || !/^[A-Z]{3}$/.test(player.currency)
  ) throw new Problem(502, "OPERATOR_BAD_RESPONSE", "the Details URL answered a body that is not the player's details")
  if ("status" in player && player.status === "blocked") {
    throw new Problem(422, "PLAYER_REJECTED", "the operator reports the player as blocked")
  }
  return player.currency
}

/** `GET /api/v1.1/operator-api/games/generate-launch-url`: `{success: true, url}`. */
export const launch = async (context: LaunchContext, merchantId: number, query: URLSearchParams) => {
  const gameId = ref(query, "gameId")
  const playerId = ref(query, "playerId")
  const sessionId = ref(query, "sessionId")
  const mode = oneOf(query, "mode", ["real", "demo"], "real")
  const lobby = oneOf(query, "disableGameLobby", ["true", "false"], "false") === "false"
  const currency = query.get("currency") ?? undefined
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) throw invalid("currency", "must be an ISO 4217 code")

  const games = await context.pool.query<GameRow>(
    `SELECT id, name, release_date, base_launch_url, category, image_url FROM games
     WHERE id = $1 AND retired_at IS NULL`,
    [gameId]
  )
  const row = games.rows[0]
  if (row === undefined) throw new Problem(404, "GAME_NOT_FOUND", `no game with id '${gameId.slice(0, 128)}'`)
  const game = gameJson(row, context.publicBaseUrl)
  const merchants = await context.pool.query<MerchantRow>(
    `SELECT m.currency, s.user_details_url
     FROM merchants m LEFT JOIN merchant_settings s ON s.merchant_id = m.id WHERE m.id = $1`,
    [merchantId]
  )
  const merchant = merchants.rows[0]
  if (merchant === undefined) throw new Problem(404, "MERCHANT_NOT_FOUND", "no such merchant")

  const fromPlayer = mode === "real"
    ? await playerCurrency(context, merchantId, merchant, {
      playerId, sessionId, gameId, mode, ...(currency === undefined ? {} : { currency })
    })
    : undefined
  const resolved = currency ?? fromPlayer ?? merchant.currency
  if (resolved !== merchant.currency || (fromPlayer !== undefined && fromPlayer !== resolved)) {
    throw new Problem(422, "CURRENCY_MISMATCH", `the launch currency must be the merchant's ${merchant.currency}`)
  }
  const now = Math.floor(Date.now() / 1000)
  const token = await new SignJWT({
    iss: context.publicBaseUrl, aud: "launch", sub: playerId, jti: randomUUID(), iat: now, exp: now + 60,
    mid: merchantId, gid: game.id, sid: sessionId, mode, cur: resolved, lobby
  })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT", kid: context.signingKey.kid })
    .sign(context.signingKey.privateKey)
  const separator = game.baseLaunchUrl.includes("?") ? "&" : "?"
  return { success: true, url: `${game.baseLaunchUrl}${separator}token=${encodeURIComponent(token)}` }
}
