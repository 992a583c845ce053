import { PgClient } from "@effect/sql-pg"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { json, startOperator } from "@gateway/adapters-operator/testing"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { randomBytes } from "node:crypto"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"
import { eventually } from "./Wallet.ts"

const scope = Effect.runSync(Scope.make())
let databaseUrl: Redacted.Redacted<string>
let gw: Gateway

beforeAll(async () => {
  databaseUrl = await Effect.runPromise(Scope.provide(scope)(PgTest.scopedMigratedDatabaseUrl))
  gw = await spawnGateway({
    DATABASE_URL: Redacted.value(databaseUrl),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ALLOW_PRIVATE_OPERATOR_URLS: "true",
    READ_CACHE_TTL_MS: "60000"
  })
})
afterAll(async () => {
  await gw.stop("SIGKILL")
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

/**
 * A change made straight in the shared database with its change notification
 * lost (triggers off for the transaction), so this instance's API cache keeps
 * the old value for its TTL.
 */
const unannounced = (statement: (sql: PgClient.PgClient) => Effect.Effect<unknown, unknown>) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const sql = yield* PgClient.make({ url: databaseUrl, maxConnections: 1 })
      yield* sql.withTransaction(sql`SET LOCAL session_replication_role = replica`.pipe(Effect.andThen(statement(sql))))
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))
  )

describe("caches are for the HTTP side only", () => {
  it("the delivery worker sends to the webhook URL of now, even while the API still serves a cached merchant", async () => {
    const before = await startOperator((_r, res) => json(res, 200, {}))
    const after = await startOperator((_r, res) => json(res, 200, {}))
    try {
      const admin = { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
      const api = `${gw.url}/api/v1.1/operator-api`
      const merchant = await call(`${api}/create`, {
        method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Fresh Co", email: "fresh@example.com", providerId: 1 }
      })
      const id = Number(merchant.body.id)
      const set = await call(`${api}/merchants/${id}/settings`, { method: "PUT", headers: admin, json: { webhookUrl: `${before.url}/hook` } })
      assert.strictEqual(set.status, 200, set.text)
      // This instance hears of its own change by notification, a moment after the answer: let it arrive
      // before the read below fills the cache, or it would empty the cache after the unannounced change.
      await new Promise((resolve) => setTimeout(resolve, 1500))
      assert.strictEqual((await call(`${api}/merchants/${id}`, { headers: admin })).body.MerchantSettings.webhookUrl, `${before.url}/hook`)

      await unannounced((sql) => sql`UPDATE merchant_settings SET webhook_url = ${`${after.url}/hook`} WHERE merchant_id = ${id}`)
      const cached = await call(`${api}/merchants/${id}`, { headers: admin })
      assert.strictEqual(cached.body.MerchantSettings.webhookUrl, `${before.url}/hook`, "the API reads through its cache")

      const test = await call(`${api}/merchants/${id}/webhook-test`, { method: "POST", headers: admin })
      assert.strictEqual(test.status, 202, test.text)
      await eventually(() => after.received.length + before.received.length > 0, 5000)
      assert.strictEqual(before.received.length, 0, "nothing goes to the URL the cache still holds")
      assert.strictEqual(after.received[0]?.headers["webhook-id"], test.body.deliveryId)
    } finally {
      await Promise.all([before.close(), after.close()])
    }
  })
})
