/**
 * Load test of generate-launch-url with the operator's Details URL on
 * loopback. Baselines in the same run: the operator's Details endpoint alone
 * and the gateway's /health (HTTP overhead), then demo launches (no operator
 * call) and real launches (key check, catalogue, signed Details call, signed
 * token). Run: `node bench/launch.ts` (DATABASE_URL optional; BENCH_SECONDS,
 * BENCH_CONNECTIONS).
 */
import { Effect, Exit, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { json, startOperator } from "@gateway/adapters-operator/testing"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { gateway } from "@gateway/server/testing"
import { autocannon, report } from "./autocannon.ts"

const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
const connections = Number(process.env["BENCH_CONNECTIONS"] ?? 32)

const operator = await startOperator((r, res) => {
  json(res, 200, { playerId: JSON.parse(r.body || "{}").playerId ?? "p", currency: "ETB", balance: "100.00" })
})
const scope = Effect.runSync(Scope.make())
try {
  const gw = await Effect.runPromise(
    Scope.provide(scope)(gateway({ RATE_LIMIT_RPS: "0", LOG_LEVEL: "Warn", DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64") }))
  )
  const admin = { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
  const api = `${gw.url}/api/v1.1/operator-api`
  const merchant = await call(`${api}/create`, {
    method: "POST", headers: admin,
    json: { countryCodes: ["ET"], companyName: "Bench", email: "bench@example.com", providerId: 1 }
  })
  await call(`${api}/merchants/${merchant.body.id}/settings`, {
    method: "PUT", headers: admin, json: { userDetailsUrl: `${operator.url}/details` }
  })
  const key = (await call(`${api}/merchants/${merchant.body.id}/api-keys`, { method: "POST", headers: admin })).body.apiKey
  const launch = `${api}/games/generate-launch-url?gameId=odd-even&playerId=p-1&sessionId=s-1`
  const options = { connections, seconds }
  const runs = [
    await autocannon("operator Details endpoint alone (baseline)", `${operator.url}/details`, {
      ...options, headers: { "content-type": "application/json" }
    }),
    await autocannon("gateway GET /health", `${gw.url}/health`, options),
    await autocannon("generate-launch-url, demo", `${launch}&mode=demo`, { ...options, headers: { "sv-api-key": key } }),
    await autocannon("generate-launch-url, real (Details on loopback)", launch, { ...options, headers: { "sv-api-key": key } })
  ]
  console.log(`\n${connections} connections, ${seconds} s each, Node ${process.version}, ${process.env["DATABASE_URL"] ? "PostgreSQL at DATABASE_URL" : "embedded PostgreSQL"}\n`)
  report(runs)
  const status = readFileSync(`/proc/${gw.process.pid}/status`, "utf8")
  await gw.stop("SIGTERM").then(() => undefined)
  console.log(`\ngateway peak RSS ${/VmHWM:\s+(\d+)/.exec(status)?.[1]} kB, RSS now ${/VmRSS:\s+(\d+)/.exec(status)?.[1]} kB`)
} finally {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await operator.close()
}
