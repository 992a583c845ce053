import { isKey, t } from "./i18n/index.ts"
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

/** Player-facing text of a problem code the page knows (players know the casino, not an "operator"); "" for another. */
export const message = (code: string): string => (/^[A-Z_]+$/.test(code) && isKey(code) ? t(code) : "")

const codeOf = (r: Reply<unknown>): string => (typeof r.body?.code === "string" ? r.body.code : "")
export const detailOf = (r: Reply<unknown>): string => (typeof r.body?.detail === "string" ? r.body.detail : "")

/** What to tell the player about a failed call. */
export const problem = (r: Reply<unknown>, fallback: string): string => {
  if (r.status === 0) return t("offline")
  const known = message(codeOf(r))
  if (r.status === 400) return detailOf(r) !== "" ? t("notAccepted", { detail: detailOf(r) }) : fallback
  if (known !== "") return known
  if (r.status === 422) return detailOf(r) || t("PLAYER_REJECTED")
  if (r.status >= 500) return t("serverProblem")
  return detailOf(r) || fallback
}

/**
 * Calls the game API on the page's own origin, with the session token once there is one. Cookies only for the
 * redemption and its resume (`withCookies`): the resume cookie is set by the one and sent to the other.
 */
export const api = async <T>(method: string, path: string, body?: unknown, withCookies = false): Promise<Reply<T>> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (body !== undefined) headers["content-type"] = "application/json"
  if (S.token !== "") headers["authorization"] = "Bearer " + S.token
  let res: Response
  try {
    res = await fetch("/api/v1.1/game-api" + path, {
      method, headers, credentials: withCookies ? "same-origin" : "omit", cache: "no-store", ...(body === undefined ? {} : { body: JSON.stringify(body) })
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
    if (codeOf(r) === "SESSION_ENDED") fatal(t("sessionEnded"), t("SESSION_ENDED"))
    else fatal(t("sessionExpired"), t("SESSION_EXPIRED"))
  }
  return r
}
