import { type Answer, call } from "@gateway/adapters-http/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Api } from "@gateway/client/api/Api"
import { OperatorAuth } from "@gateway/client/api/Security"
import { liveKey, start, type Started, testKey } from "./support.ts"

let server: Started
beforeAll(async () => {
  server = await start()
})
afterAll(() => server.dispose())

const period = "from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z"
const json = { "content-type": "application/json" }

/**
 * Every endpoint an `sv-api-key` can reach, with a valid request, and whether an `sv_test` key may make it
 * (CONTRACT §2: list games, launch demo mode, read demo data; nothing that touches real money). The table
 * must list exactly the endpoints under OperatorAuth: a new one fails this test until it is classified.
 */
const table: Record<string, {
  readonly path: string
  readonly init?: RequestInit
  readonly testKeyMay: boolean
  readonly csv?: boolean
}> = {
  "games.list": { path: "/games", testKeyMay: true },
  "games.generateLaunchUrl": { path: "/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s&mode=demo", testKeyMay: true },
  "games.generateLaunchUrl (real)": {
    path: "/games/generate-launch-url?gameId=odd-even&playerId=p&sessionId=s&mode=real",
    testKeyMay: false
  },
  "settings.get": { path: "/settings", testKeyMay: true },
  "settings.change": {
    path: "/settings",
    init: { method: "PUT", headers: json, body: JSON.stringify({ webhookUrl: "https://attacker.example/wallet" }) },
    testKeyMay: false
  },
  "settings.change (stakes, RTP, frameAncestors)": {
    path: "/settings",
    init: { method: "PUT", headers: json, body: JSON.stringify({ maximumStake: 100000, oddEvenGameProfit: 50, frameAncestors: "https://evil.example" }) },
    testKeyMay: false
  },
  "reports.rounds": { path: `/rounds?${period}`, testKeyMay: false },
  "reports.rounds (CSV)": { path: `/rounds?${period}`, testKeyMay: false, csv: true },
  "reports.transaction": { path: "/transactions/00000000-0000-0000-0000-000000000001", testKeyMay: false },
  "reports.summary": { path: `/reports/summary?${period}&groupBy=player`, testKeyMay: false },
  "reports.summary (CSV)": { path: `/reports/summary?${period}`, testKeyMay: false, csv: true },
  "sessionControl.terminate": {
    path: "/sessions/terminate",
    init: { method: "POST", headers: json, body: JSON.stringify({ playerId: "p" }) },
    testKeyMay: false
  },
  "freeRounds.grant": {
    path: "/free-rounds",
    init: {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        campaignId: "c", playerId: "p", gameId: "odd-even", rounds: 1000, stake: "1.00",
        expiresAt: new Date(Date.now() + 86_400_000).toISOString()
      })
    },
    testKeyMay: false
  },
  "freeRounds.list": { path: "/free-rounds?playerId=p", testKeyMay: false },
  "freeRounds.cancel": { path: "/free-rounds/3f6c1a2b-7d4e-4b8a-9c0d-1e2f3a4b5c6d", init: { method: "DELETE" }, testKeyMay: false }
}

const send = (key: string, row: (typeof table)[string]): Promise<Answer> =>
  call(`${server.url}/api/v1.1/operator-api${row.path}`, {
    ...row.init,
    headers: { ...(row.init?.headers as Record<string, string> | undefined), "sv-api-key": key, ...(row.csv ? { accept: "text/csv" } : {}) }
  })

describe("sv_test keys never touch real money (issue 21 finding 3, CONTRACT §2)", () => {
  it("the table lists every endpoint an API key can reach", () => {
    const reachable = Object.values(Api.groups).flatMap((group) =>
      Object.entries(group.endpoints)
        .filter(([, endpoint]) => endpoint.middlewares.has(OperatorAuth))
        .map(([name]) => `${group.identifier}.${name}`)
    )
    const listed = new Set(Object.keys(table).map((name) => name.replace(/ \(.*\)$/, "")))
    expect([...new Set(reachable)].sort()).toEqual([...listed].sort())
  })

  it.each(Object.entries(table))("%s with an sv_test key", async (_name, row) => {
    const answer = await send(testKey, row)
    if (row.testKeyMay) {
      expect(answer.status, answer.text).toBeLessThan(400)
    } else {
      expect(answer.status, answer.text).toBe(403)
      expect(answer.headers.get("content-type")).toBe("application/problem+json")
      expect(answer.body).toMatchObject({ success: false, status: 403, code: "FORBIDDEN" })
      expect(answer.body.detail).toMatch(/sv_test key .*use an sv_live key/)
    }
  })

  it("a refused change changes nothing: the live key still reads its own webhookUrl", async () => {
    const before = await send(liveKey, table["settings.get"]!)
    await send(testKey, table["settings.change"]!)
    const after = await send(liveKey, table["settings.get"]!)
    expect(after.body.webhookUrl).toBe(before.body.webhookUrl)
    expect(after.body.webhookUrl).not.toBe("https://attacker.example/wallet")
  })

  it.each(Object.entries(table).filter(([, row]) => !row.testKeyMay && row.init === undefined && !row.csv))(
    "%s with an sv_live key is not refused",
    async (_name, row) => {
      const answer = await send(liveKey, row)
      expect(answer.status, answer.text).not.toBe(403)
    }
  )
})
