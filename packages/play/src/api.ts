import { fatal } from "./notice.ts"
import { forgetSession } from "./resume.ts"
import { S } from "./state.ts"

/** An answer of the game API: its status and JSON body (null when there is none); status 0 when offline. */
export interface Reply<T> {
  readonly ok: boolean
  readonly status: number
  readonly body: (T & Partial<Problem>) | null
}

/** A problem+json body (CONTRACT §1). */
export interface Problem {
  readonly code: string
  readonly detail: string
}

/** Player-facing text for each problem code the page can meet (players know the casino, not an "operator"). */
export const MSG: Readonly<Record<string, string>> = {
  TOKEN_ALREADY_USED: "This game link has already been used. A link opens the game once: open the game again from the casino's site.",
  SESSION_EXPIRED: "Your game session has expired. Open the game again from the casino's site.",
  BET_REFUSED: "Your casino account refused this bet (not enough funds, or over a limit). Nothing was taken.",
  INSUFFICIENT_FUNDS: "Not enough balance for this stake. Lower the stake and try again.",
  WALLET_UNAVAILABLE: "Your casino account did not answer, so the bet was not placed. Anything taken is refunded automatically. Please try again.",
  PLAYER_REJECTED: "The casino did not accept your account for this game. Please contact its support.",
  CURRENCY_MISMATCH: "This game cannot be played in your account's currency. Please contact the casino's support.",
  DETAILS_URL_NOT_SET: "Real-money play is not set up yet for this game. Please contact the casino's support.",
  OPERATOR_TIMEOUT: "The casino's system did not answer in time. Please try again.",
  OPERATOR_BAD_RESPONSE: "The casino's system is not answering properly. Please try again in a moment.",
  OPERATOR_UNAVAILABLE: "The casino's system is having trouble, so nothing was taken. Please try again in a minute.",
  RATE_LIMITED: "Too many requests at once. Wait a moment and try again.",
  FORBIDDEN: "This game is not available in this session.",
  GAME_NOT_FOUND: "This game is not available.",
  GAME_RETIRED: "This game has been withdrawn and can no longer be played. Nothing was taken. Choose another game on the casino's site."
}

const codeOf = (r: Reply<unknown>): string => (typeof r.body?.code === "string" ? r.body.code : "")
export const detailOf = (r: Reply<unknown>): string => (typeof r.body?.detail === "string" ? r.body.detail : "")

/** What to tell the player about a failed call. */
export const problem = (r: Reply<unknown>, fallback: string): string => {
  if (r.status === 0) return "No connection to the game server. Check your connection and try again."
  const known = MSG[codeOf(r)]
  if (r.status === 400) return detailOf(r) !== "" ? "Not accepted: " + detailOf(r) : fallback
  if (known !== undefined) return known
  if (r.status === 422) return detailOf(r) || (MSG["PLAYER_REJECTED"] ?? fallback)
  if (r.status >= 500) return "The game server had a problem. Please try again in a moment."
  return detailOf(r) || fallback
}

/** Calls the game API on the page's own origin, with the session token once there is one. */
export const api = async <T>(method: string, path: string, body?: unknown): Promise<Reply<T>> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (body !== undefined) headers["content-type"] = "application/json"
  if (S.token !== "") headers["authorization"] = "Bearer " + S.token
  let res: Response
  try {
    res = await fetch("/api/v1.1/game-api" + path, {
      method, headers, credentials: "omit", cache: "no-store", ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  } catch {
    return { ok: false, status: 0, body: null }
  }
  // The game API's own answers, read as its OpenAPI document says; every field used is checked where it is used.
  let json: (T & Partial<Problem>) | null = null
  try {
    json = await res.json()
  } catch {
    json = null
  }
  return { ok: res.ok, status: res.status, body: json }
}

/** {@link api} within a session: a 401 ends the session on the "expired" screen. */
export const call = async <T>(method: string, path: string, body?: unknown): Promise<Reply<T>> => {
  const r = await api<T>(method, path, body)
  if (r.status === 401) {
    forgetSession()
    fatal("Session expired", MSG["SESSION_EXPIRED"] ?? "")
  }
  return r
}
