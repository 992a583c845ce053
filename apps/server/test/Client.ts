import { SignJWT } from "jose"

/** An HTTP answer, its JSON body parsed when it has one. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

/** Calls the gateway with fetch and reads the whole answer. */
export const call = async (url: string, init: RequestInit & { json?: unknown } = {}): Promise<Answer> => {
  const { json, ...rest } = init
  const res = await fetch(url, {
    ...rest,
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    headers: { ...(json === undefined ? {} : { "content-type": "application/json" }), ...rest.headers }
  })
  const text = await res.text()
  let body: unknown = undefined
  try {
    body = text === "" ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: res.status, headers: res.headers, body, text }
}

/** An HS256 admin token for the gateway's AUTH_JWT_SECRET. */
export const adminToken = (secret: string, scope = "read:users write:users", expiresIn = "10m") =>
  new SignJWT({ scope })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret))
