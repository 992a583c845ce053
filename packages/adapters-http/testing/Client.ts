import { Effect, Redacted } from "effect"
import { mint } from "../src/middleware/AdminAuth.ts"

/**
 * An HTTP answer, its JSON body parsed when it has one. `body` is loosely
 * typed on purpose: tests read arbitrary fields of the gateway's JSON and
 * assert on them.
 */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

/** Calls the gateway with fetch and reads the whole answer; `json` is sent as the body with its content-type. */
export const call = async (url: string, init: RequestInit & { json?: unknown } = {}): Promise<Answer> => {
  const { json, ...rest } = init
  const headers = new Headers(rest.headers)
  if (json !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json")
  const res = await fetch(url, { ...rest, ...(json === undefined ? {} : { body: JSON.stringify(json) }), headers })
  const text = await res.text()
  let body: unknown = undefined
  try {
    body = text === "" ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: res.status, headers: res.headers, body, text }
}

/** An HS256 admin token for the gateway's AUTH_JWT_SECRET, minted like the ops CLI mints them. */
export const adminToken = (secret: string, scope = "read:users write:users", expiresIn = "10m"): Promise<string> =>
  Effect.runPromise(mint({
    secret: Redacted.make(secret),
    scopes: scope.split(" ").filter((s) => s !== ""),
    expiresIn
  }))
