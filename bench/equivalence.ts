/**
 * Before the runs, one request of each scenario goes to both servers and the
 * answers are compared, so the baseline is known to do the gateway's work:
 * the same status and JSON, launch URLs compared by base URL and token claims
 * (the token's id, times and key differ by nature).
 */
import { call } from "@gateway/adapters-http/testing"
import { decodeJwt, decodeProtectedHeader } from "jose"
import { isDeepStrictEqual } from "node:util"
import type { Scenario } from "./scenarios.ts"

const answer = async (url: string, request: { path: string; headers: Record<string, string> }) => {
  const res = await call(`${url}${request.path}`, { headers: request.headers })
  return { status: res.status, body: normalize(res.body ?? res.text) }
}

/** A launch answer with its token replaced by the token's comparable parts. */
const normalize = (body: unknown): unknown => {
  if (typeof body !== "object" || body === null || !("url" in body) || typeof body.url !== "string") return body
  const url = new URL(body.url)
  const token = url.searchParams.get("token")
  if (token === null) return body
  url.searchParams.delete("token")
  const { jti: _jti, iat, exp, ...claims } = decodeJwt(token)
  const { alg, typ } = decodeProtectedHeader(token)
  return { ...body, url: url.href, token: { alg, typ, claims, ttl: (exp ?? 0) - (iat ?? 0) } }
}

/** The differences of the two servers' answers to one request of each scenario (empty when they agree). */
export const compareServers = async (
  gatewayUrl: string,
  baselineUrl: string,
  scenarios: ReadonlyArray<Scenario>
): Promise<Array<string>> => {
  const differences: Array<string> = []
  for (const scenario of scenarios) {
    const request = scenario.load.next()
    const [gateway, baseline] = await Promise.all([answer(gatewayUrl, request), answer(baselineUrl, request)])
    if (!isDeepStrictEqual(gateway, baseline)) {
      differences.push(
        `${scenario.name}: the baseline answers differently from the gateway to ${request.path}: ` +
          `gateway ${JSON.stringify(gateway).slice(0, 400)} / baseline ${JSON.stringify(baseline).slice(0, 400)}`
      )
    }
  }
  return differences
}
