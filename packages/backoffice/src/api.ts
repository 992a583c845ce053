import type { User } from "@gateway/client/api/Backoffice"

/** A problem+json body (CONTRACT §1). */
export interface Problem {
  readonly status: number
  readonly code: string
  readonly detail: string
}

/** An answer of the back-office API: the body when it succeeded, the problem when not (status 0: offline). */
export type Reply<T> =
  | { readonly ok: true; readonly status: number; readonly body: T; readonly text: string; readonly headers: Headers }
  | { readonly ok: false; readonly status: number; readonly problem: Problem }

/** The signed-in user as the API shows it (`GET me`). */
export type Me = typeof User.Encoded

const base = "/api/v1.1/backoffice"
const csrfKey = "gateway.backoffice.csrf"

/** The session's CSRF token: login answers it; kept in this tab's sessionStorage for reloads. */
export const session = {
  csrf: (): string => sessionStorage.getItem(csrfKey) ?? "",
  open: (csrf: string): void => sessionStorage.setItem(csrfKey, csrf),
  close: (): void => sessionStorage.removeItem(csrfKey)
}

/** What the app does when the session is gone (401) or the password must change (403): set by main.ts. */
export const hooks = { ended: (_problem: Problem): void => {}, mustChangePassword: (): void => {} }

const problemOf = (status: number, body: unknown): Problem => {
  const field = (name: string): string => {
    const value: unknown = typeof body === "object" && body !== null ? Reflect.get(body, name) : undefined
    return typeof value === "string" ? value : ""
  }
  return { status, code: field("code") || "HTTP_" + status, detail: field("detail") || "The gateway answered " + status + "." }
}

/** Calls the back-office API on the page's own origin with the cookie, and the CSRF token on every call but GET. */
export const call = async <T>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
  accept = "application/json"
): Promise<Reply<T>> => {
  const headers: Record<string, string> = { accept }
  if (body !== undefined) headers["content-type"] = "application/json"
  if (method !== "GET") headers["x-csrf-token"] = session.csrf()
  let res: Response
  try {
    res = await fetch(base + path, {
      method, headers, credentials: "same-origin", cache: "no-store", ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  } catch {
    return { ok: false, status: 0, problem: { status: 0, code: "OFFLINE", detail: "The gateway cannot be reached. Check the connection and try again." } }
  }
  const text = await res.text()
  // The API's own answers, read as its OpenAPI document says: JSON.parse answers `any`, typed by the caller with the
  // client's schema types. No body (204) or a CSV answer reads as null; the CSV is in `text`.
  const parse = (): T => {
    try {
      return JSON.parse(text === "" || (res.ok && !accept.includes("json")) ? "null" : text)
    } catch {
      return JSON.parse("null")
    }
  }
  const json = parse()
  if (res.ok) return { ok: true, status: res.status, body: json, text, headers: res.headers }
  const problem = problemOf(res.status, json)
  if (res.status === 401 && problem.code === "UNAUTHORIZED") hooks.ended(problem)
  if (res.status === 403 && problem.code === "PASSWORD_CHANGE_REQUIRED") hooks.mustChangePassword()
  return { ok: false, status: res.status, problem }
}

/** A query string of the values that are set. */
export const query = (values: Readonly<Record<string, string | number | undefined>>): string => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== "") params.set(name, String(value))
  const text = params.toString()
  return text === "" ? "" : "?" + text
}
