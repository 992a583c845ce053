/**
 * The operator stub of the bench, run as its own process on 127.0.0.1
 * (`node bench/operator.ts`; prints `{"port":N}` on its first stdout line).
 *
 * - `POST /details`       → 200 `{playerId, currency: "ETB", balance: "1000.00"}` at once
 * - `POST /details-slow`  → the same after 20 ms
 * - `POST /wallet`        → 200 `{balance: "1000.00"}`, counted
 * - `POST /wallet-slow`   → the same after 20 ms (a wallet as far away as a real one)
 * - `GET /count`          → `{wallet, details, batches}`: the messages received
 *   so far; `batches` counts wallet messages whose `webhook-id` is
 *   `<batch>.<…>` by batch, in all (`total`) and once per id (`distinct`)
 *
 * Signatures are not verified: the stub stands for a fast operator, and the
 * repository's tests prove the signatures.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"

let wallet = 0
let details = 0
const batches = new Map<string, { total: number; ids: Set<string> }>()

const countBatch = (id: string) => {
  const dot = id.indexOf(".")
  if (dot <= 0) return
  const name = id.slice(0, dot)
  const batch = batches.get(name) ?? { total: 0, ids: new Set<string>() }
  batch.total++
  batch.ids.add(id)
  batches.set(name, batch)
}

const counts = () =>
  JSON.stringify({
    wallet,
    details,
    batches: Object.fromEntries([...batches].map(([name, b]) => [name, { total: b.total, distinct: b.ids.size }]))
  })

const send = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

const playerOf = (text: string): string => {
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed === "object" && parsed !== null && "playerId" in parsed && typeof parsed.playerId === "string") {
      return parsed.playerId
    }
  } catch {
    // answered with a placeholder below
  }
  return "unknown"
}

const detailsAnswer = (body: string) => JSON.stringify({ playerId: playerOf(body), currency: "ETB", balance: "1000.00" })

const walletAnswer = JSON.stringify({ balance: "1000.00" })

const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
  const path = (req.url ?? "/").split("?")[0]
  if (req.method === "GET" && path === "/count") return send(res, 200, counts())
  if (req.method !== "POST") return send(res, 405, "{}")
  switch (path) {
    case "/details":
      details++
      return send(res, 200, detailsAnswer(body))
    case "/details-slow":
      details++
      setTimeout(() => send(res, 200, detailsAnswer(body)), 20)
      return
    case "/wallet":
      wallet++
      countBatch(String(req.headers["webhook-id"] ?? ""))
      return send(res, 200, walletAnswer)
    case "/wallet-slow":
      wallet++
      countBatch(String(req.headers["webhook-id"] ?? ""))
      setTimeout(() => send(res, 200, walletAnswer), 20)
      return
    default:
      return send(res, 404, "{}")
  }
}

const server = createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk))
  req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")))
})
server.keepAliveTimeout = 60_000
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  process.stdout.write(`${JSON.stringify({ port })}\n`)
})
process.on("SIGTERM", () => process.exit(0))
// The bench owns this process: when it goes away (its stdin pipe closes), so does the stub.
process.stdin.on("end", () => process.exit(0)).resume()
