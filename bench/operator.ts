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
 * - `GET /rounds`         → `{rounds, debited, credited, refunded, repeats}`:
 *   wallet messages by their body's `data.roundId` (the bet bench's check
 *   that every round was debited once and credited once, by transaction
 *   id); `repeats` counts a message delivered again under the same id
 *   (at-least-once: an operator books it once), `doubles` rounds with two
 *   ids of one type (booked twice)
 * - `POST /rounds-check`  → of the round ids in the body (a JSON array):
 *   `{asked, debitedOnce, creditedOnce, refunded}`
 * - `POST /down`, `POST /up` → an operator that is down (every details and
 *   wallet call answers 503, counted as `down` in `/count`) or back
 *
 * Signatures are not verified: the stub stands for a fast operator, and the
 * repository's tests prove the signatures.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { serveHelper } from "./children.ts"

let wallet = 0
let details = 0
let isDown = false
let down = 0
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

/**
 * Per round: the distinct transaction ids (`webhook-id`) of its debits, credits and refunds, and how many messages
 * arrived in all. An operator books a transaction id once (CONTRACT §5): a message delivered again after an
 * instance died before marking it (at-least-once) is a repeat, not a second booking.
 */
const rounds = new Map<string, { debit: Set<string>; credit: Set<string>; refund: Set<string>; messages: number }>()

const countRound = (body: string, webhookId: string) => {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return
  }
  if (typeof parsed !== "object" || parsed === null || !("type" in parsed) || !("data" in parsed)) return
  const data = parsed.data
  if (typeof data !== "object" || data === null || !("roundId" in data) || typeof data.roundId !== "string") return
  const kind = parsed.type === "transaction.debit" ? "debit" : parsed.type === "transaction.credit" ? "credit" : "refund"
  const round = rounds.get(data.roundId) ?? { debit: new Set(), credit: new Set(), refund: new Set(), messages: 0 }
  round[kind].add(webhookId)
  round.messages++
  rounds.set(data.roundId, round)
}

/** `repeats`: messages delivered again under the same id; `doubles`: rounds with two ids of one kind (booked twice). */
const roundCounts = () => {
  let debited = 0
  let credited = 0
  let refunded = 0
  let repeats = 0
  let doubles = 0
  for (const round of rounds.values()) {
    if (round.debit.size > 0) debited++
    if (round.credit.size > 0) credited++
    if (round.refund.size > 0) refunded++
    repeats += round.messages - round.debit.size - round.credit.size - round.refund.size
    if (round.debit.size > 1 || round.credit.size > 1 || round.refund.size > 1) doubles++
  }
  return JSON.stringify({ rounds: rounds.size, debited, credited, refunded, repeats, doubles })
}

const checkRounds = (body: string) => {
  const ids: unknown = JSON.parse(body)
  let asked = 0
  let debitedOnce = 0
  let creditedOnce = 0
  let refunded = 0
  for (const id of Array.isArray(ids) ? ids : []) {
    if (typeof id !== "string") continue
    asked++
    const round = rounds.get(id)
    if (round?.debit.size === 1) debitedOnce++
    if (round?.credit.size === 1) creditedOnce++
    if ((round?.refund.size ?? 0) > 0) refunded++
  }
  return JSON.stringify({ asked, debitedOnce, creditedOnce, refunded })
}

const counts = () =>
  JSON.stringify({
    wallet,
    details,
    down,
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
  if (req.method === "GET" && path === "/rounds") return send(res, 200, roundCounts())
  if (req.method !== "POST") return send(res, 405, "{}")
  if (path === "/rounds-check") return send(res, 200, checkRounds(body))
  if (path === "/down" || path === "/up") {
    isDown = path === "/down"
    return send(res, 200, "{}")
  }
  if (isDown) {
    down++
    return send(res, 503, "{}")
  }
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
      countRound(body, String(req.headers["webhook-id"] ?? ""))
      return send(res, 200, walletAnswer)
    case "/wallet-slow":
      wallet++
      countBatch(String(req.headers["webhook-id"] ?? ""))
      countRound(body, String(req.headers["webhook-id"] ?? ""))
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
// The bench owns this process: it ends on SIGTERM or when the bench goes away.
serveHelper(server)
