/**
 * Game sessions for the rounds runs: launch URLs from the gateway, each token
 * redeemed once (`POST /api/v1.1/game-api/sessions`) for a session token, and
 * a rotation that hands each request the next session, so that no session
 * has two bets in flight and none bets more than its budget.
 */
import { fetchJson, stringField } from "./json.ts"
import type { SeededKey } from "./seed.ts"

/** Bets one session may take: demo sessions start at 1000 and each bet stakes 1.00. */
export const betsPerSession = 900

/** Opens `count` sessions of odd-even in `mode`, `parallel` at a time, rotating over `keys`. */
export const openSessions = async (
  gatewayUrl: string,
  keys: ReadonlyArray<SeededKey>,
  count: number,
  mode: "demo" | "real",
  parallel = 8
): Promise<Array<string>> => {
  const tokens: Array<string> = []
  let next = 0
  const openOne = async (i: number) => {
    const key = keys[i % keys.length]
    if (key === undefined) throw new Error("no API keys to open sessions with")
    const query = new URLSearchParams({ gameId: "odd-even", playerId: `bench-${mode}-${i}`, sessionId: `s-${mode}-${i}`, mode })
    const launch = await fetchJson(
      `${gatewayUrl}/api/v1.1/operator-api/games/generate-launch-url?${query}`,
      { headers: { "sv-api-key": key.key } },
      200
    )
    const token = new URL(stringField(launch, "url")).searchParams.get("token")
    if (token === null) throw new Error("a launch URL without a token")
    const opened = await fetchJson(`${gatewayUrl}/api/v1.1/game-api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token })
    }, 201)
    tokens.push(stringField(opened, "sessionToken"))
  }
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < count) await openOne(next++)
  }))
  return tokens
}

/**
 * The next session in turn, skipping sessions that used their budget of
 * bets. Once all have, it keeps rotating (the answers become 402s and show
 * up as non-2xx): open more sessions instead.
 */
export const rotation = (tokens: ReadonlyArray<string>, budget = betsPerSession) => {
  const used = new Array<number>(tokens.length).fill(0)
  let at = 0
  return (): string => {
    for (let tries = 0; tries < tokens.length; tries++) {
      at = (at + 1) % tokens.length
      if ((used[at] ?? 0) < budget) break
    }
    used[at] = (used[at] ?? 0) + 1
    return tokens[at] ?? ""
  }
}
