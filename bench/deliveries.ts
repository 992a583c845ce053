/**
 * Throughput of the webhook delivery worker: N credits are queued in one
 * transaction of the outbox and the clock runs until a loopback operator has
 * answered all of them. Baseline in the same run: a plain keep-alive client
 * posting the same N signed messages at the worker's concurrency (16).
 * Run: `node bench/deliveries.ts` (DATABASE_URL optional; BENCH_MESSAGES).
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted, Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { randomBytes, randomUUID } from "node:crypto"
import { Agent, request } from "undici"
import * as PgTest from "@gateway/adapters-pg/testing"
import { prepare, signMessage } from "@gateway/adapters-operator/webhooks/Signature"
import { json, startOperator } from "@gateway/adapters-operator/testing"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { spawnGateway } from "@gateway/server/testing"

const messages = Number(process.env["BENCH_MESSAGES"] ?? 5000)
let received = 0
const operator = await startOperator((_r, res) => {
  received++
  json(res, 200, { balance: "100.00" })
})
const scope = Effect.runSync(Scope.make())
const waitFor = async (count: number) => {
  while (received < count) await new Promise((r) => setTimeout(r, 5))
}
const body = (id: string) =>
  JSON.stringify({ type: "transaction.credit", timestamp: new Date().toISOString(), data: { transactionId: id, amount: "1.00", currency: "ETB" } })

try {
  const url = await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl))
  const gw = await spawnGateway({
    DATABASE_URL: Redacted.value(url),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ALLOW_PRIVATE_OPERATOR_URLS: "true",
    LOG_LEVEL: "Warn"
  })
  try {
    const admin = { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
    const api = `${gw.url}/api/v1.1/operator-api`
    const merchant = (await call(`${api}/create`, {
      method: "POST", headers: admin,
      json: { countryCodes: ["ET"], companyName: "Bench", email: "bench@example.com", providerId: 1 }
    })).body
    await call(`${api}/merchants/${merchant.id}/settings`, { method: "PUT", headers: admin, json: { webhookUrl: `${operator.url}/wallet` } })

    const keys = prepare({ encryptionKey: Redacted.make(String(merchant.encryptionKey)), privateKey: Redacted.make(String(merchant.privateKey)) })
    const agent = new Agent({ connections: 16 })
    const ids = Array.from({ length: messages }, () => randomUUID())
    let next = 0
    const t0 = performance.now()
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < ids.length) {
        const id = ids[next++] ?? ""
        const text = body(id)
        const res = await request(`${operator.url}/wallet`, {
          method: "POST", dispatcher: agent, body: text,
          headers: { "content-type": "application/json", ...signMessage(keys, id, Math.floor(Date.now() / 1000), text) }
        })
        await res.body.text()
      }
    }))
    const baseline = messages / ((performance.now() - t0) / 1000)
    await agent.close()

    const start = received
    const insertAll = Effect.gen(function*() {
      const sql = yield* PgClient.make({ url, maxConnections: 1 })
      yield* sql`INSERT INTO webhook_deliveries (id, merchant_id, type, body)
        SELECT g::text, ${merchant.id}, 'transaction.credit', ${body("bench")} FROM generate_series(1, ${messages}) g`
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))
    const t1 = performance.now()
    await Effect.runPromise(insertAll)
    await waitFor(start + messages)
    const worker = messages / ((performance.now() - t1) / 1000)

    console.log(`\n${messages} messages, loopback operator, Node ${process.version}, ${process.env["DATABASE_URL"] ? "PostgreSQL at DATABASE_URL" : "embedded PostgreSQL"}\n`)
    console.log("| run | deliveries/s | vs baseline |")
    console.log("|---|---:|---:|")
    console.log(`| plain signed POSTs, 16 at a time (baseline) | ${baseline.toFixed(0)} | 1.00 |`)
    console.log(`| delivery worker: claim, sign, POST, mark delivered | ${worker.toFixed(0)} | ${(worker / baseline).toFixed(2)} |`)
  } finally {
    await gw.stop("SIGTERM")
  }
} finally {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await operator.close()
}
