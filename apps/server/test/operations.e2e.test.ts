import { adminToken, call } from "@gateway/adapters-http/testing"
import { json, startOperator } from "@gateway/adapters-operator/testing"
import { Effect, Exit, Scope } from "effect"
import { afterAll, assert, describe, it } from "vitest"
import { type Gateway, gateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
const start = (env: Record<string, string> = {}): Promise<Gateway> => Effect.runPromise(Scope.provide(scope)(gateway(env)))

/** The gateway's JSON log lines. */
const lines = (gw: Gateway): Array<Record<string, unknown>> =>
  gw.output().split("\n").filter((line) => line.startsWith("{")).map((line): Record<string, unknown> => JSON.parse(line))

const API = "/api/v1.1/operator-api"

/** A merchant created through the admin API, with `settings`. */
const merchantOf = async (gw: Gateway, email: string, settings: Record<string, unknown> = {}) => {
  const admin = { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
  const created = await call(`${gw.url}${API}/create`, {
    method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Ops Co", email, providerId: 1 }
  })
  assert.strictEqual(created.status, 201, created.text)
  const updated = await call(`${gw.url}${API}/merchants/${created.body.id}/settings`, {
    method: "PUT", headers: admin, json: settings
  })
  assert.strictEqual(updated.status, 200, updated.text)
  return { id: Number(created.body.id), admin }
}

const requestLines = (gw: Gateway, route: string) =>
  lines(gw).filter((line) => line["message"] === "request" && line["route"] === route)

describe("what an operator of the gateway reads in its log", () => {
  it("logs /health and /ready probes at DEBUG, other requests at INFO; LOG_LEVEL=debug (lower case) shows the probes", async () => {
    const [quiet, chatty] = await Promise.all([start(), start({ LOG_LEVEL: "debug", LOG_FORMAT: "JSON" })])
    for (const gw of [quiet, chatty]) {
      for (const path of ["/health", "/ready", "/openapi.json"]) {
        assert.strictEqual((await fetch(`${gw.url}${path}`).then((r) => r.arrayBuffer().then(() => r.status))), 200)
      }
    }
    await new Promise((r) => setTimeout(r, 100))
    assert.deepStrictEqual(requestLines(quiet, "/health"), [])
    assert.deepStrictEqual(requestLines(quiet, "/ready"), [])
    assert.deepStrictEqual(requestLines(quiet, "/openapi.json").map((line) => line["level"]), ["INFO"])
    // The harness asked /health until it answered: one line or more.
    const health = requestLines(chatty, "/health")
    assert.isNotEmpty(health)
    assert.deepStrictEqual([...new Set(health.map((line) => line["level"]))], ["DEBUG"])
    assert.deepStrictEqual(requestLines(chatty, "/ready").map((line) => [line["level"], line["status"]]), [["DEBUG", 200]])
    assert.deepStrictEqual(requestLines(chatty, "/openapi.json").map((line) => line["level"]), ["INFO"])
  })

  it("logs a delivery whose retries are used up at ERROR, with its merchant, event and id; each retry before at WARN", async () => {
    const operator = await startOperator((_r, res) => json(res, 500, { error: "down" }))
    try {
      const gw = await start({ WEBHOOK_RETRY_SCHEDULE: "0.1,0.1" })
      const merchant = await merchantOf(gw, "exhausted@example.com", { webhookUrl: `${operator.url}/hook` })
      const queued = await call(`${gw.url}${API}/merchants/${merchant.id}/webhook-test`, {
        method: "POST", headers: merchant.admin
      })
      assert.strictEqual(queued.status, 202, queued.text)
      const deliveryId = String(queued.body.deliveryId)
      const ofIt = () => lines(gw).filter((line) => line["deliveryId"] === deliveryId)
      for (const deadline = Date.now() + 15_000; !ofIt().some((line) => line["level"] === "ERROR");) {
        if (Date.now() > deadline) throw new Error(`no ERROR line: ${gw.output()}`)
        await new Promise((r) => setTimeout(r, 50))
      }
      assert.deepStrictEqual(ofIt().map((line) => line["level"]), ["WARN", "WARN", "ERROR"])
      assert.deepInclude(ofIt()[2], { merchantId: merchant.id, type: "webhook.test", next: "failed", status: 500 })
      assert.lengthOf(operator.received, 3)
    } finally {
      await operator.close()
    }
  })
})

describe("webhook-test", () => {
  it("answers 422 WEBHOOK_URL_NOT_SET (problem+json, in the OpenAPI) for a merchant without a webhook URL, and sends nothing", async () => {
    const operator = await startOperator((_r, res) => json(res, 200, {}))
    try {
      const gw = await start()
      const bare = await merchantOf(gw, "no-url@example.com", { creditWebhookUrl: `${operator.url}/credit` })
      const refused = await call(`${gw.url}${API}/merchants/${bare.id}/webhook-test`, { method: "POST", headers: bare.admin })
      assert.strictEqual(refused.status, 422, refused.text)
      assert.strictEqual(refused.headers.get("content-type"), "application/problem+json")
      assert.include(refused.body, { success: false, status: 422, code: "WEBHOOK_URL_NOT_SET" })
      const separate = await merchantOf(gw, "separate@example.com", {
        isSeperateWebhookUrl: true,
        creditWebhookUrl: `${operator.url}/credit`
      })
      const sent = await call(`${gw.url}${API}/merchants/${separate.id}/webhook-test`, { method: "POST", headers: separate.admin })
      assert.strictEqual(sent.status, 202, sent.text)
      for (const deadline = Date.now() + 10_000; operator.received.length === 0;) {
        if (Date.now() > deadline) throw new Error("the ping never arrived")
        await new Promise((r) => setTimeout(r, 50))
      }
      assert.deepStrictEqual(operator.received.map((r) => r.url), ["/credit"])
      const spec = await call(`${gw.url}/openapi.json`)
      const answer = spec.body.paths[`${API}/merchants/{id}/webhook-test`].post.responses["422"]
      assert.include(JSON.stringify(answer), "WEBHOOK_URL_NOT_SET")
    } finally {
      await operator.close()
    }
  })
})
