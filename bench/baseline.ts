/**
 * The BASELINE of the bench, run as its own process (`node bench/baseline.ts`,
 * prints `{"port":N}` on its first stdout line): plain `node:http` and a
 * pooled `pg` client (10 connections), no cache, the straightforward
 * implementation of the gateway's two operator GET endpoints on the same
 * database, answering the same JSON:
 *
 * - `GET /api/v1.1/operator-api/games` (baseline-games.ts)
 * - `GET /api/v1.1/operator-api/games/generate-launch-url` (baseline-launch.ts)
 * - `POST /api/v1.1/game-api/rounds`, a real round of odd-even (baseline-bet.ts)
 *
 * It holds what a plain server holds after start-up: the merchants' signing
 * keys parsed (baseline-keys.ts), a pool, keep-alive agents; no cache of data.
 *
 * Environment: DATABASE_URL, DATA_ENCRYPTION_KEY (base64, 32 bytes),
 * PUBLIC_BASE_URL. Test-only code: it lives in bench/ only.
 */
import { generateKeyPairSync, createHash } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import pg from "pg"
import { listGames } from "./baseline-games.ts"
import { authenticate, Problem, sendJson, sendProblem } from "./baseline-http.ts"
import { bet, createBetTables } from "./baseline-bet.ts"
import { loadSigningKeys } from "./baseline-keys.ts"
import { launch, type LaunchContext } from "./baseline-launch.ts"
import { serveHelper } from "./children.ts"

const required = (name: string): string => {
  const value = process.env[name]
  if (value === undefined || value === "") throw new Error(`baseline: ${name} is required`)
  return value
}

const pool = new pg.Pool({ connectionString: required("DATABASE_URL"), max: 10 })
const dataKey = Buffer.from(required("DATA_ENCRYPTION_KEY"), "base64")
if (dataKey.length !== 32) throw new Error("baseline: DATA_ENCRYPTION_KEY must be 32 bytes of base64")
const publicBaseUrl = required("PUBLIC_BASE_URL").replace(/\/+$/, "")
const { privateKey, publicKey } = generateKeyPairSync("ed25519")
const kid = createHash("sha256").update(publicKey.export({ format: "der", type: "spki" })).digest("base64url")
await createBetTables(pool)
const keys = await loadSigningKeys(pool, dataKey)
const context: LaunchContext = { pool, keys, publicBaseUrl, signingKey: { kid, privateKey } }

const api = "/api/v1.1/operator-api"

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://baseline")
  const route = `${req.method} ${url.pathname}`
  const answer = async () => {
    switch (route) {
      case "POST /api/v1.1/game-api/rounds": {
        const played = await bet({ pool, keys }, req.headers.authorization, await readBody(req))
        sendJson(res, 200, played.answer, { "cache-control": "no-store" })
        return played.after()
      }
      case `GET ${api}/games`: {
        await authenticate(pool, req.headers["sv-api-key"])
        return sendJson(res, 200, await listGames(pool, url.searchParams, publicBaseUrl))
      }
      case `GET ${api}/games/generate-launch-url`: {
        const merchantId = await authenticate(pool, req.headers["sv-api-key"])
        return sendJson(res, 200, await launch(context, merchantId, url.searchParams), { "cache-control": "no-store" })
      }
      case "GET /health":
        return sendJson(res, 200, { status: "ok" })
      default:
        throw new Problem(404, "ROUTE_NOT_FOUND", `no route ${req.method} ${url.pathname}`)
    }
  }
  if (req.method !== "POST") req.resume()
  answer().catch((error: unknown) => sendProblem(res, error))
})
server.keepAliveTimeout = 60_000
const stop = () => {
  server.close()
  server.closeAllConnections()
  pool.end().finally(() => process.exit(0))
}
// The bench owns this process: it ends on SIGTERM or when the bench goes away.
serveHelper(server, stop)
