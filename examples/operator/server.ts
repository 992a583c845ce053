/**
 * A minimal operator for the Operator Gateway: its Details URL, its shop Details URL, its wallet
 * (CONTRACT §5 and §11, the `webhooks` section of /openapi.json) and its callbackUrl
 * (CONTRACT §10: session.started, session.ended, round.settled — logged). Balances live in
 * memory; a real operator keeps them, and the answers below, in its database.
 *
 *   WEBHOOK_SECRET=whsec_… node examples/operator/server.ts
 *
 * PORT (4000), HOST (all interfaces), WEBHOOK_SECRET (the merchant's encryptionKey), CURRENCY (ETB),
 * STARTING_BALANCE (1000.00: every player's balance when first seen).
 */
import { createServer, type IncomingMessage } from "node:http"
import { Webhook } from "standardwebhooks"

const secret = process.env["WEBHOOK_SECRET"] ?? ""
if (!secret.startsWith("whsec_")) throw new Error("set WEBHOOK_SECRET to the merchant's encryptionKey (whsec_…)")
const webhook = new Webhook(secret)
const currency = process.env["CURRENCY"] ?? "ETB"
const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2

/** Amounts are decimal strings with the currency's digits: kept as integer minor units, never floats. */
const toMinor = (amount: string) => BigInt(amount.replace(".", "")) * 10n ** BigInt(digits - (amount.split(".")[1]?.length ?? 0))
const format = (minor: bigint) => {
  const text = minor.toString().padStart(digits + 1, "0")
  return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`
}
const startingBalance = toMinor(process.env["STARTING_BALANCE"] ?? "1000.00")

interface Message {
  readonly type: string
  readonly data: { transactionId: string; refTransactionId?: string; playerId: string; amount: string; currency: string }
}
interface Answer {
  readonly status: number
  readonly body: unknown
}

/** The retail shops (CONTRACT §11): one open for play, one blocked (its launches are 422 SHOP_REJECTED). */
const shops: Record<string, { readonly name: string; readonly status: "active" | "blocked" }> = {
  "shop-1": { name: "Bole Road Shop", status: "active" },
  "shop-2": { name: "Piazza Shop (closed)", status: "blocked" }
}

const balances = new Map<string, bigint>()
const taken = new Map<string, bigint>() // debits taken, by transactionId
const refunded = new Set<string>() // debits refunded: refused should they arrive late
const answers = new Map<string, Answer>() // the first answer to every message, by webhook-id
const balanceOf = (player: string) => balances.get(player) ?? startingBalance
const move = (player: string, minor: bigint): Answer => {
  balances.set(player, balanceOf(player) + minor)
  return { status: 200, body: { balance: format(balanceOf(player)) } }
}

/** The events of `callbackUrl`: nothing to move, only to record (here: the log line below). */
const callbacks = new Set(["session.started", "session.ended", "round.settled"])

const apply = ({ type, data }: Message): Answer => {
  if (type === "webhook.test" || callbacks.has(type)) return { status: 200, body: {} }
  if (data.currency !== currency) return { status: 400, body: { error: `only ${currency}` } }
  const amount = toMinor(data.amount)
  if (type === "transaction.credit") return move(data.playerId, amount)
  if (type === "transaction.refund") {
    refunded.add(data.refTransactionId ?? "")
    return move(data.playerId, taken.get(data.refTransactionId ?? "") ?? 0n) // give back only what was taken
  }
  if (type !== "transaction.debit") return { status: 400, body: { error: `unknown type ${type}` } }
  if (refunded.has(data.transactionId)) return { status: 409, body: { error: "already refunded" } }
  if (amount > balanceOf(data.playerId)) return { status: 402, body: { error: "insufficient funds" } }
  taken.set(data.transactionId, amount)
  return move(data.playerId, -amount)
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = ""
    req.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk
      if (body.length > 65_536) req.destroy()
    })
    req.on("end", () => resolve(body)).on("error", reject).on("close", () => reject(new Error("closed")))
  })

const handle = async (req: IncomingMessage): Promise<Answer> => {
  const header = (name: string) => String(req.headers[name] ?? "")
  const raw = await read(req)
  let message: unknown
  try { // the signature (and a timestamp within 5 minutes) proves the gateway sent exactly this body
    message = webhook.verify(raw, { "webhook-id": header("webhook-id"), "webhook-timestamp": header("webhook-timestamp"), "webhook-signature": header("webhook-signature") })
  } catch {
    return { status: 401, body: { error: "bad signature" } }
  }
  if (req.url === "/shops") { // the shopDetailsUrl: an unknown shop is 404, the gateway's 422 SHOP_REJECTED too
    const { shopId } = message as { shopId: string }
    const shop = Object.hasOwn(shops, shopId) ? shops[shopId] : undefined
    if (shop === undefined) return { status: 404, body: { error: "unknown shop" } }
    return { status: 200, body: { shopId, name: shop.name, currency, status: shop.status, minimumStake: format(10n ** BigInt(digits)) } }
  }
  if (req.url === "/details") {
    const { playerId } = message as { playerId: string }
    return { status: 200, body: { playerId, currency, balance: format(balanceOf(playerId)), status: "active" } }
  }
  const id = header("webhook-id") // = data.transactionId: a repeat gets the first answer
  const answer = answers.get(id) ?? apply(message as Message)
  answers.set(id, answer)
  console.log(`${(message as Message).type} ${id} → ${answer.status} ${JSON.stringify(answer.body)}`)
  return answer
}

const server = createServer((req, res) => {
  handle(req)
    .catch((): Answer => ({ status: 400, body: { error: "bad request" } }))
    .then(({ status, body }) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body)))
})
server.listen(Number(process.env["PORT"] ?? 4000), process.env["HOST"], () => console.log(`operator listening on ${JSON.stringify(server.address())}`))
