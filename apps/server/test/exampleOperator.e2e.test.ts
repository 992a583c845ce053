import { call } from "@gateway/adapters-http/testing"
import { type Received, startOperator } from "@gateway/adapters-operator/testing"
import { Effect, Exit, Scope } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { join } from "node:path"
import { Webhook } from "standardwebhooks"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { freePort, type Gateway, gateway } from "../testing/Gateway.ts"
import { makeValidators, type OpenApiDocument } from "./Fuzz.ts"
import { eventually, playerSession, poll } from "./Wallet.ts"

/**
 * The example operator of `examples/operator/` (its own process, as the
 * README runs it) behind the real gateway: the README's real-money walk-through.
 * A recording proxy sits between them, to capture every call and to lose or
 * delay answers the way a network does.
 */

const example = join(import.meta.dirname, "..", "..", "..", "examples", "operator", "server.ts")

/** One call through the proxy: what the gateway sent and what the example answered. */
interface Exchange {
  readonly request: Received
  readonly status: number
  readonly answer: string
  /** Whether the gateway got the example's answer (or a 503 instead, the answer "lost"). */
  readonly passed: boolean
}

const kindOf = (r: Received): string =>
  r.url === "/details" ? "details" : r.url === "/shops" ? "shop" : String(JSON.parse(r.body).type)

const startExample = async (env: Record<string, string>) => {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, [example], {
    env: { PATH: process.env["PATH"] ?? "", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (d: Buffer) => output += d.toString())
  child.stderr?.on("data", (d: Buffer) => output += d.toString())
  await eventually(() => {
    if (child.exitCode !== null) throw new Error(`the example exited: ${output}`)
    return output.includes("operator listening")
  }, 10_000)
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop: () => child.kill("SIGKILL") }
}

const world = {} as {
  gw: Gateway
  player: Awaited<ReturnType<typeof playerSession>>
  example: Awaited<ReturnType<typeof startExample>>
  proxy: Awaited<ReturnType<typeof startOperator>>
}
const exchanges: Array<Exchange> = []
/** What the proxy does to the next message of a kind: lose every answer to it, or delay the answer past the time-out. */
const faults = { loseNext: undefined as string | undefined, lost: undefined as string | undefined, slowNext: undefined as string | undefined }
const scope = Effect.runSync(Scope.make())

beforeAll(async () => {
  world.gw = await Effect.runPromise(Scope.provide(scope)(gateway({ WEBHOOK_TIMEOUT_MS: "500", WEBHOOK_RETRY_SCHEDULE: "0.2,0.2" })))
  world.proxy = await startOperator((request, res) => {
    const id = String(request.headers["webhook-id"])
    const kind = kindOf(request)
    if (faults.loseNext === kind) [faults.loseNext, faults.lost] = [undefined, id]
    const slow = faults.slowNext === kind
    if (slow) faults.slowNext = undefined
    const headers = Object.fromEntries(["content-type", "webhook-id", "webhook-timestamp", "webhook-signature"]
      .map((name) => [name, String(request.headers[name])]))
    void fetch(`${world.example.url}${request.url}`, { method: "POST", headers, body: request.body }).then(async (got) => {
      const answer = await got.text()
      const passed = faults.lost !== id
      exchanges.push({ request, status: got.status, answer, passed })
      setTimeout(() => res.writeHead(passed ? got.status : 503, { "content-type": "application/json" }).end(passed ? answer : "{}"), slow ? 1500 : 0)
    })
  })
  world.player = await playerSession(world.gw, world.proxy.url, "example-operator@example.com", "real", "", {
    shopDetailsUrl: `${world.proxy.url}/shops`
  })
  const callbacks = await call(`${world.player.api}/merchants/${world.player.merchantId}/settings`, {
    method: "PUT", headers: world.player.admin, json: { callbackUrl: `${world.proxy.url}/callbacks` }
  })
  assert.strictEqual(callbacks.status, 200, callbacks.text)
  world.example = await startExample({ WEBHOOK_SECRET: world.player.encryptionKey, STARTING_BALANCE: "100.00" })
})

afterAll(async () => {
  world.example?.stop()
  await world.proxy?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** Signs `body` as the gateway does (Standard Webhooks, the merchant's encryptionKey). */
const signed = (id: string, body: string, at = new Date()) => ({
  "content-type": "application/json",
  "webhook-id": id,
  "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
  "webhook-signature": new Webhook(world.player.encryptionKey).sign(id, at, body)
})

/** The example's balance of a player, asked through its Details URL like the gateway asks. */
const exampleBalance = async (playerId = "p-1") => {
  const body = JSON.stringify({ playerId, sessionId: "check", gameId: "odd-even", mode: "real" })
  const answer = await call(`${world.example.url}/details`, { method: "POST", headers: signed(`msg_${randomUUID()}`, body), body })
  assert.strictEqual(answer.status, 200, answer.text)
  return String(answer.body.balance)
}

const minor = (amount: string) => BigInt(amount.replace(".", ""))
const period = { from: new Date(Date.now() - 60_000).toISOString(), to: "" }

/** The gateway's summary of the player's real-money rounds once every wallet message is settled. */
const settledSummary = async () => {
  period.to = new Date(Date.now() + 60_000).toISOString()
  const headers = { "sv-api-key": world.player.key }
  await poll(
    () => call(`${world.player.api}/rounds?from=${period.from}&to=${period.to}&limit=100`, { headers }),
    (answer) => answer.status === 200 && answer.body.data.every((r: any) => r.transactions.every((t: any) => t.status !== "pending"))
  )
  const summary = await call(`${world.player.api}/reports/summary?from=${period.from}&to=${period.to}`, { headers })
  assert.strictEqual(summary.status, 200, summary.text)
  return summary.body.total
}

describe("the example operator (examples/operator/) behind the real gateway: real-money play end to end", () => {
  it("a real-mode launch asks the example's Details URL, which answers the player's balance", async () => {
    const { opened } = await world.player.newSession()
    assert.strictEqual(opened.status, 201, opened.text)
    assert.strictEqual(opened.body.balance, "100.00")
    assert.isTrue(exchanges.some((e) => kindOf(e.request) === "details" && e.status === 200))
  })

  it("a retail launch asks the example's shopDetailsUrl: its active shop opens a cashier's session, its blocked one is 422", async () => {
    const launch = (shopId: string) =>
      call(`${world.player.api}/games/generate-launch-url?gameId=odd-even&playerId=p-1&sessionId=s-shop&shopId=${shopId}`, {
        headers: { "sv-api-key": world.player.key }
      })
    const blocked = await launch("shop-2")
    assert.strictEqual(blocked.status, 422, blocked.text)
    assert.strictEqual(blocked.body.code, "SHOP_REJECTED")
    const active = await launch("shop-1")
    assert.strictEqual(active.status, 200, active.text)
    const token = new URL(active.body.url).searchParams.get("token")
    const opened = await call(`${world.gw.url}/api/v1.1/game-api/sessions`, { method: "POST", json: { token } })
    assert.strictEqual(opened.status, 201, opened.text)
    assert.deepStrictEqual(opened.body.launch.shop, { shopId: "shop-1", name: "Bole Road Shop" })
  })

  it("wins, losses, a refused bet and a timed-out bet leave the example's balance where the gateway's reports say", async () => {
    const { sessionToken } = await world.player.newSession()
    const payouts: Array<string> = []
    for (let i = 0; i < 30 && !(payouts.some((p) => minor(p) === 0n) && payouts.some((p) => minor(p) > 0n)); i++) {
      const round = await world.player.bet(sessionToken, "1.00", i % 2 === 0 ? "odd" : "even")
      assert.strictEqual(round.status, 200, round.text)
      payouts.push(String(round.body.payout))
    }
    assert.isTrue(payouts.some((p) => minor(p) === 0n) && payouts.some((p) => minor(p) > 0n), "a win and a loss")

    const refused = await world.player.bet(sessionToken, "400.00")
    assert.strictEqual(refused.status, 402, refused.text)
    assert.strictEqual(refused.body.code, "BET_REFUSED")
    assert.isTrue(exchanges.some((e) => kindOf(e.request) === "transaction.debit" && e.status === 402))

    faults.slowNext = "transaction.debit"
    const timedOut = await world.player.bet(sessionToken, "5.00")
    assert.strictEqual(timedOut.status, 502, timedOut.text)
    await eventually(() => exchanges.some((e) => kindOf(e.request) === "transaction.refund" && e.status === 200))

    const total = await settledSummary()
    assert.strictEqual(total.refunds, "5.00")
    assert.strictEqual(minor(await exampleBalance()), minor("100.00") - minor(total.ggr))
  })

  it("a credit whose answers are lost is retried, fails, is redelivered by an admin, and is paid once", async () => {
    const { sessionToken } = await world.player.newSession()
    faults.loseNext = "transaction.credit"
    const round = await world.player.bet(sessionToken, "2.00")
    assert.strictEqual(round.status, 200, round.text)
    const deliveries = `${world.player.api}/merchants/${world.player.merchantId}/webhook-deliveries`
    const failed = await poll(
      () => call(`${deliveries}?status=failed`, { headers: world.player.admin }),
      (answer) => answer.body?.data?.some((d: any) => d.id === faults.lost)
    )
    const lostId = String(faults.lost)
    assert.strictEqual(failed.body.data.find((d: any) => d.id === lostId).attempts, 3)
    const attempts = () => exchanges.filter((e) => e.request.headers["webhook-id"] === lostId)
    const [first] = attempts()
    assert.strictEqual(attempts().length, 3)
    assert.strictEqual(new Set(attempts().map((e) => `${e.status} ${e.answer}`)).size, 1, "every repeat gets the first answer")
    const paid = await exampleBalance()

    faults.lost = undefined
    const redeliver = await call(`${deliveries}/${lostId}/redeliver`, { method: "POST", headers: world.player.admin })
    assert.strictEqual(redeliver.status, 202, redeliver.text)
    await eventually(() => attempts().length === 4)
    const last = attempts().at(-1)
    assert.deepStrictEqual([last?.passed, last?.status, last?.answer], [true, first?.status, first?.answer])
    assert.strictEqual(await exampleBalance(), paid, "the repeats moved no money")

    const total = await settledSummary()
    assert.strictEqual(minor(await exampleBalance()), minor("100.00") - minor(total.ggr))
  })

  it("a webhook.test ping reaches the example, and every call it got matches the webhooks section of /openapi.json", async () => {
    const test = await call(`${world.player.api}/merchants/${world.player.merchantId}/webhook-test`, { method: "POST", headers: world.player.admin })
    assert.strictEqual(test.status, 202, test.text)
    await eventually(() => exchanges.some((e) => e.request.headers["webhook-id"] === test.body.deliveryId && e.status === 200))

    const doc: OpenApiDocument & { webhooks: Record<string, any> } = (await call(`${world.gw.url}/openapi.json`)).body
    const { errors } = makeValidators(doc)
    assert.deepStrictEqual(
      [...new Set(exchanges.map((e) => kindOf(e.request)))].sort(),
      // session.ended comes at a session's idle expiry (30 min here): callbacks.e2e.test.ts checks it against the document.
      Object.keys(doc.webhooks).filter((name) => name !== "session.ended").sort(),
      "every documented call was made"
    )
    for (const { request, status, answer } of exchanges) {
      const op = doc.webhooks[kindOf(request)].post
      assert.deepStrictEqual(errors(op.requestBody.content["application/json"].schema, JSON.parse(request.body)), [], request.body)
      for (const parameter of op.parameters) {
        const value = request.headers[parameter.name]
        if (value === undefined && !parameter.required) continue // traceparent: only when traces are exported
        assert.deepStrictEqual(errors(parameter.schema, value), [], parameter.name)
      }
      const documented = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`]
      assert.isDefined(documented, `${kindOf(request)} ${status}`)
      const schema = documented.content?.["application/json"]?.schema
      if (schema !== undefined) assert.deepStrictEqual(errors(schema, JSON.parse(answer)), [], answer)
    }
  })

  it("the example answers a repeated debit with its first answer and refuses tampered, forged and stale calls", async () => {
    const balance = await exampleBalance()
    for (const status of [200, 402]) {
      const first = exchanges.find((e) => kindOf(e.request) === "transaction.debit" && e.status === status)
      if (first === undefined) throw new Error(`no debit answered ${status}`)
      const { request } = first
      const headers = Object.fromEntries(["content-type", "webhook-id", "webhook-signature"].map((h) => [h, String(request.headers[h])]))
      const timestamp = String(request.headers["webhook-timestamp"])
      const again = await call(`${world.example.url}/wallet`, { method: "POST", headers: { ...headers, "webhook-timestamp": timestamp }, body: request.body })
      assert.deepStrictEqual([again.status, again.text], [first.status, first.answer])

      const tampered = request.body.replace(/"amount":"[^"]+"/, "\"amount\":\"0.01\"")
      const refusedTampered = await call(`${world.example.url}/wallet`, { method: "POST", headers: { ...headers, "webhook-timestamp": timestamp }, body: tampered })
      assert.strictEqual(refusedTampered.status, 401)
    }
    const body = JSON.stringify({ playerId: "p-1", sessionId: "s", gameId: "odd-even", mode: "real" })
    const forged = { ...signed("msg_forged", body), "webhook-signature": `v1,${Buffer.alloc(32).toString("base64")}` }
    assert.strictEqual((await call(`${world.example.url}/details`, { method: "POST", headers: forged, body })).status, 401)
    const stale = signed("msg_stale", body, new Date(Date.now() - 10 * 60_000))
    assert.strictEqual((await call(`${world.example.url}/details`, { method: "POST", headers: stale, body })).status, 401)
    assert.strictEqual((await call(`${world.example.url}/details`, { method: "POST", body })).status, 401)
    assert.strictEqual(await exampleBalance(), balance, "no money moved")
  })
})
