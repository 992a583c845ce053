import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { liveKey, start, type Started, suspendedKey, token } from "./support.ts"

const base = "/api/v1.1/operator-api"

/** A raw answer: status, headers in the order sent (without the ones that differ per request), body bytes. */
interface Raw {
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: Buffer
}

const perRequest = new Set(["date", "x-request-id"])

const get = (server: Started, path: string, headers: Record<string, string> = {}): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const pairs: Array<readonly [string, string]> = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = (res.rawHeaders[i] ?? "").toLowerCase()
          if (!perRequest.has(name)) pairs.push([name, res.rawHeaders[i + 1] ?? ""])
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) })
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

const key = { "sv-api-key": liveKey }
const json = (raw: Raw) => JSON.parse(raw.body.toString("utf8"))
const ids = (raw: Raw): Array<string> => json(raw).data.map((game: { id: string }) => game.id)

const queries = [
  "",
  "limit=2",
  "limit=1&page=3",
  "page=9",
  "sortBy=category&sortOrder=DESC",
  "search=MEGA",
  "search=e&searchFields=id&limit=2&page=2",
  "searchFields=name,id&search=o"
]

let plain: Started
let kept: Started

beforeAll(async () => {
  plain = await start(undefined, {}, { pages: { maxEntries: 0, maxBytes: 0 } })
  kept = await start()
})
afterAll(async () => {
  await plain.dispose()
  await kept.dispose()
})

describe("games pages kept encoded", () => {
  it("answer the same status, headers and bytes as pages the API encodes every time", async () => {
    for (const query of queries) {
      const path = `${base}/games?${query}`
      const expected = await get(plain, path, key)
      expect(expected.status, query).toBe(200)
      expect(expected.headers).toContainEqual(["content-type", "application/json"])
      expect(expected.headers).toContainEqual(["cache-control", "no-store"])
      for (let i = 0; i < 3; i++) expect(await get(kept, path, key), `${query} #${i + 1}`).toEqual(expected)
    }
  })

  it("show a game upserted or retired through the admin API on the very next request", async () => {
    const admin = { authorization: `Bearer ${await token()}`, "content-type": "application/json" }
    const path = `${base}/games?search=brand&searchFields=name&sortBy=id`
    const list = () => get(kept, path, key)
    expect(ids(await list())).toEqual([])
    expect(ids(await list())).toEqual([])
    const game = { name: "Brand New", releaseDate: "2026-11-23", baseLaunchUrl: "https://games.example/brand", category: 1, imageUrl: "https://games.example/brand.png" }
    const put = (id: string, body: object) => fetch(`${kept.url}${base}/games/${id}`, { method: "PUT", headers: admin, body: JSON.stringify(body) })

    expect((await put("brand-new", game)).status).toBe(200)
    expect(ids(await list())).toEqual(["brand-new"])
    expect((await put("brand-two", { ...game, name: "Brand Two" })).status).toBe(200)
    expect(ids(await list())).toEqual(["brand-new", "brand-two"])
    expect((await put("brand-two", { ...game, name: "Renamed" })).status).toBe(200)
    expect(ids(await list())).toEqual(["brand-new"])
    expect((await fetch(`${kept.url}${base}/games/brand-new`, { method: "DELETE", headers: admin })).status).toBe(204)
    expect(ids(await list())).toEqual([])
  })

  it("are never answered to a request whose key fails, and each failure is charged once", async () => {
    const server = await start(undefined, { rateLimit: { rps: 1, burst: 100, failures: { rps: 0.001, burst: 3 } } })
    try {
      const path = `${base}/games?search=odd`
      const first = await get(server, path, key)
      expect((await get(server, path, key)).body).toEqual(first.body)
      const refused = async (headers: Record<string, string>, status: number, code: string) => {
        const answer = await get(server, path, headers)
        expect(answer.status).toBe(status)
        expect(answer.headers).toContainEqual(["content-type", "application/problem+json"])
        expect(json(answer)).toMatchObject({ success: false, status, code })
      }
      await refused({ "sv-api-key": suspendedKey }, 403, "FORBIDDEN")
      await refused({}, 401, "UNAUTHORIZED")
      await refused({ "sv-api-key": "nodots" }, 401, "UNAUTHORIZED")
      await refused({ "sv-api-key": `sv_live.${"A".repeat(43)}.unknownkey` }, 401, "UNAUTHORIZED")
      await refused({ "sv-api-key": `sv_live.${"A".repeat(43)}.unknownkey` }, 429, "RATE_LIMITED")
      expect((await get(server, path, key)).body).toEqual(first.body)
    } finally {
      await server.dispose()
    }
  })

  it("charge the key's rate limit as the API does", async () => {
    const server = await start(undefined, { rateLimit: { rps: 0.001, burst: 2 } })
    try {
      const path = `${base}/games?limit=1`
      expect((await get(server, path, key)).status).toBe(200)
      expect((await get(server, path, key)).status).toBe(200)
      const limited = await get(server, path, key)
      expect(limited.status).toBe(429)
      expect(json(limited)).toMatchObject({ code: "RATE_LIMITED" })
      expect(limited.headers.find(([name]) => name === "retry-after")).toBeDefined()
    } finally {
      await server.dispose()
    }
  })
})

describe("launch answers", () => {
  it("are the LaunchUrl JSON with the headers in the order the API's encoder gave them", async () => {
    const query = "gameId=odd-even&playerId=p-1&sessionId=s-1"
    for (const mode of ["real", "demo"]) {
      const answer = await get(kept, `${base}/games/generate-launch-url?${query}&mode=${mode}`, key)
      expect(answer.status).toBe(200)
      expect(answer.headers.slice(0, 3)).toEqual([
        ["content-type", "application/json"],
        ["content-length", String(answer.body.length)],
        ["cache-control", "no-store"]
      ])
      const text = answer.body.toString("utf8")
      expect(Object.keys(JSON.parse(text))).toEqual(["success", "url"])
      expect(text).toBe(JSON.stringify({ success: true, url: json(answer).url }))
      expect(json(answer).url).toMatch(/^https:\/\/games\.example\/play\/odd-even\?token=\S+$/)
    }
  })
})
