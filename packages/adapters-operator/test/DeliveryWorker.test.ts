import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { MerchantId } from "@gateway/domain/Merchant"
import type { SettingsValues } from "@gateway/domain/MerchantSettings"
import { DeliveryQueue } from "@gateway/domain/ports/DeliveryQueue"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { makeMemoryQueue, makeMerchantRepo, type MemoryMerchants, type MemoryQueue, merchantWith } from "@gateway/domain/testing"
import { json, type Received, startOperator } from "@gateway/adapters-operator/testing"
import type { ServerResponse } from "node:http"
import { Webhook } from "standardwebhooks"
import * as OperatorCircuit from "../src/http/OperatorCircuit.ts"
import * as DeliveryWorker from "../src/webhooks/DeliveryWorker.ts"
import { credentials, secrets, signedHeaders, signedPost } from "./fixtures.ts"

const mid = MerchantId.make(7)
const body = (id: string) =>
  JSON.stringify({ type: "transaction.credit", timestamp: "2026-11-21T22:00:00.000Z", data: { transactionId: id, amount: "19.50" } })
const credit = (id: string) => ({ id, merchantId: mid, type: "transaction.credit" as const, body: body(id) })
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`

/** Polls `check` every 10 ms until it holds, for at most `ms`. */
const eventually = (check: () => boolean, ms = 5000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + ms
    while (!check()) {
      if (Date.now() > deadline) return yield* Effect.die(new Error("condition not reached in time"))
      yield* Effect.sleep(10)
    }
  })

interface World {
  readonly url: string
  readonly received: Array<Received>
  readonly queue: MemoryQueue
  /** The merchant repository the workers read: `put` changes merchant 7 behind their back. */
  readonly merchants: MemoryMerchants
}

/** A real operator, the in-memory queue and `workers` workers, for the duration of `f`. */
const withWorld = <A>(
  reply: (r: Received, res: ServerResponse, count: number) => void,
  settings: (url: string) => SettingsValues,
  f: (world: World) => Effect.Effect<A>,
  options: {
    readonly schedule?: ReadonlyArray<number>
    readonly workers?: number
    readonly timeoutMs?: number
    readonly circuit?: Layer.Layer<OperatorCircuit.OperatorCircuit>
  } = {}
) =>
  Effect.acquireUseRelease(
    Effect.promise(() => {
      let count = 0
      return startOperator((r, res) => reply(r, res, ++count))
    }),
    (op) =>
      Effect.gen(function*() {
        const queue = yield* makeMemoryQueue
        const merchants = makeMerchantRepo([merchantWith(settings(op.url))], secrets)
        // A distinct layer per worker: the same layer value twice would be built only once.
        const worker = () =>
          DeliveryWorker.layer({
            timeoutMs: options.timeoutMs ?? 2000,
            schedule: options.schedule ?? [0.05, 0.05, 0.05],
            pollInterval: 20
          })
        const workers = Layer.mergeAll(worker(), ...Array.from({ length: (options.workers ?? 1) - 1 }, worker)).pipe(
          Layer.provide(signedPost(true, options.circuit)),
          Layer.provide([Layer.succeed(DeliveryQueue, queue.service), Layer.succeed(MerchantRepo, merchants.service)])
        )
        return yield* Effect.scoped(
          Effect.andThen(Layer.build(Layer.fresh(workers)), f({ url: op.url, received: op.received, queue, merchants }))
        )
      }),
    (op) => Effect.promise(op.close)
  )

const verify = (r: Received) => new Webhook(Redacted.value(credentials.encryptionKey)).verify(r.body, signedHeaders(r.headers))

describe("DeliveryWorker with a real operator on 127.0.0.1", () => {
  it.live("retries a credit answered 500 with the same webhook-id and body until a 200, then never again", () =>
    withWorld(
      (_r, res, n) => json(res, n < 3 ? 500 : 200, { balance: "10.00" }),
      (url) => ({ webhookUrl: `${url}/wallet` }),
      ({ received, queue }) =>
        Effect.gen(function*() {
          yield* queue.enqueue(credit(uuid(1)))
          yield* eventually(() => queue.rows.get(uuid(1))?.status === "delivered")
          yield* Effect.sleep(300)
          assert.strictEqual(received.length, 3)
          for (const r of received) {
            assert.strictEqual(r.url, "/wallet")
            assert.strictEqual(r.headers["webhook-id"], uuid(1))
            assert.strictEqual(r.body, body(uuid(1)))
            verify(r)
          }
          assert.strictEqual(queue.rows.get(uuid(1))?.attempts, 3)
        })
    ))

  it.live("honours Retry-After (seconds) over a shorter schedule", () =>
    withWorld(
      (_r, res, n) => {
        if (n === 1) {
          res.writeHead(503, { "retry-after": "1" })
          res.end()
        } else json(res, 200, {})
      },
      (url) => ({ webhookUrl: url }),
      ({ received, queue }) =>
        Effect.gen(function*() {
          const started = Date.now()
          yield* queue.enqueue(credit(uuid(2)))
          yield* eventually(() => queue.rows.get(uuid(2))?.status === "delivered")
          assert.deepStrictEqual(queue.rows.get(uuid(2))?.delays, [1])
          assert.strictEqual(received.length, 2)
          assert.isAtLeast(Date.now() - started, 950)
        })
    ))

  it.live("marks a message failed when the schedule is exhausted, with the last status", () =>
    withWorld(
      (_r, res) => json(res, 500, {}),
      (url) => ({ webhookUrl: url }),
      ({ received, queue }) =>
        Effect.gen(function*() {
          yield* queue.enqueue(credit(uuid(3)))
          yield* eventually(() => queue.rows.get(uuid(3))?.status === "failed")
          const row = queue.rows.get(uuid(3))
          assert.strictEqual(row?.attempts, 3)
          assert.strictEqual(row?.lastStatus, 500)
          assert.match(row?.lastError ?? "", /HTTP 500/)
          yield* Effect.sleep(200)
          assert.strictEqual(received.length, 3)
        }),
      { schedule: [0.05, 0.05] }
    ))

  it.live("pauses a merchant's deliveries while its circuit is open, attempts uncounted, and resumes after one probe", () => {
    const at: Array<number> = []
    return withWorld(
      (_r, res, n) => {
        at.push(Date.now())
        json(res, n <= 2 ? 500 : 200, {})
      },
      (url) => ({ webhookUrl: url }),
      ({ queue }) =>
        Effect.gen(function*() {
          yield* queue.enqueue(credit(uuid(300)))
          yield* eventually(() => at.length === 2)
          // Two failures in a row opened the circuit: what comes due meanwhile waits instead of using its attempts.
          for (let n = 301; n < 304; n++) yield* queue.enqueue(credit(uuid(n)))
          yield* eventually(() => [300, 301, 302, 303].every((n) => queue.rows.get(uuid(n))?.status === "delivered"))
          assert.strictEqual(at.length, 6, "2 failures, then each message once")
          const [, secondFailure = 0, probe = 0] = at
          assert.isAtLeast(probe - secondFailure, 550, "nothing was sent while the circuit was open")
          assert.strictEqual(queue.rows.get(uuid(300))?.attempts, 3, "its 2 failures and its delivery; waiting cost nothing")
          for (let n = 301; n < 304; n++) assert.strictEqual(queue.rows.get(uuid(n))?.attempts, 1)
        }),
      {
        schedule: [0.05, 0.05],
        circuit: OperatorCircuit.layerMemory({ failures: 2, openMs: 600 })
      }
    )
  })

  it.live("chooses the URL at send time from the merchant's current settings, by type", () =>
    withWorld(
      (r, res) => json(res, r.url === "/old" ? 500 : 200, {}),
      (url) => ({ webhookUrl: `${url}/old` }),
      ({ url, received, queue, merchants }) =>
        Effect.gen(function*() {
          yield* queue.enqueue(credit(uuid(4)))
          yield* eventually(() => received.length === 1)
          merchants.put(merchantWith({
            isSeperateWebhookUrl: true,
            webhookUrl: `${url}/old`,
            creditWebhookUrl: `${url}/credit`,
            refundWebhookUrl: `${url}/refund`,
            debitWebhookUrl: `${url}/debit`
          }))
          yield* queue.enqueue({ ...credit(uuid(5)), type: "transaction.refund" })
          yield* eventually(() => ["delivered"].includes(queue.rows.get(uuid(4))?.status ?? "") &&
            queue.rows.get(uuid(5))?.status === "delivered")
          const id = yield* queue.service.enqueueTest(mid)
          yield* eventually(() => queue.rows.get(id)?.status === "delivered")
          const urlOf = (webhookId: string) => received.filter((r) => r.headers["webhook-id"] === webhookId).map((r) => r.url)
          assert.deepStrictEqual(urlOf(uuid(4)), ["/old", "/credit"])
          assert.deepStrictEqual(urlOf(uuid(5)), ["/refund"])
          assert.deepStrictEqual(urlOf(id), ["/credit"])
        })
    ))

  it.live("never sends a message twice at once, even with two workers on one queue", () => {
    const inFlight = new Map<string, number>()
    let overlap = 0
    return withWorld(
      (r, res) => {
        const id = String(r.headers["webhook-id"])
        const now = (inFlight.get(id) ?? 0) + 1
        if (now > 1) overlap++
        inFlight.set(id, now)
        setTimeout(() => {
          inFlight.set(id, (inFlight.get(id) ?? 1) - 1)
          json(res, 200, {})
        }, 50)
      },
      (url) => ({ webhookUrl: url }),
      ({ received, queue }) =>
        Effect.gen(function*() {
          for (let n = 10; n < 50; n++) yield* queue.enqueue(credit(uuid(n)))
          yield* eventually(() => [...queue.rows.values()].every((r) => r.status === "delivered"))
          yield* Effect.sleep(100)
          assert.strictEqual(overlap, 0)
          assert.strictEqual(received.length, 40)
          assert.strictEqual(new Set(received.map((r) => r.headers["webhook-id"])).size, 40)
        }),
      { workers: 2 }
    )
  })

  it.live("sends 16 at once with four times as many claimed ahead, and gives back what waits unsent when it stops", () => {
    let inFlight = 0
    let most = 0
    let outbox: MemoryQueue | undefined
    return withWorld(
      (_r, res) => {
        most = Math.max(most, ++inFlight)
        setTimeout(() => {
          inFlight--
          json(res, 200, {})
        }, 400)
      },
      (url) => ({ webhookUrl: url }),
      ({ received, queue }) =>
        Effect.gen(function*() {
          outbox = queue
          for (let n = 100; n < 200; n++) yield* queue.enqueue(credit(uuid(n)))
          yield* eventually(() => received.length === 16)
          const leased = [...queue.rows.values()].filter((r) => r.status === "queued" && r.leaseUntil > Date.now())
          assert.strictEqual(leased.length, 80)
        })
    ).pipe(Effect.andThen(Effect.sync(() => {
      const rows = [...(outbox?.rows.values() ?? [])]
      // 16 were being sent when the worker stopped (their lease stands); the 64 claimed ahead
      // are free again with no attempt counted, like the 20 never claimed.
      const free = rows.filter((r) => r.status === "queued" && r.leaseUntil === 0)
      assert.strictEqual(free.length, 84)
      assert.isTrue(free.every((r) => r.attempts === 0))
      assert.strictEqual(most, 16)
    })))
  })

  it.live("a merchant without a webhook URL is retried, then failed, without any call", () =>
    withWorld(
      (_r, res) => json(res, 200, {}),
      () => ({}),
      ({ received, queue }) =>
        Effect.gen(function*() {
          yield* queue.enqueue(credit(uuid(6)))
          yield* eventually(() => queue.rows.get(uuid(6))?.status === "failed")
          assert.strictEqual(queue.rows.get(uuid(6))?.lastError, "no webhook URL configured")
          assert.strictEqual(received.length, 0)
        }),
      { schedule: [0.01] }
    ))
})

describe("DeliveryWorker: prompt repair after an operator's outage", () => {
  it.live("a message waiting for a 5 min retry is probed and delivered within ~1 s of the operator's recovery, its failed probes uncounted", () => {
    let down = true
    return withWorld(
      (_r, res) => json(res, down ? 503 : 200, { balance: "10.00" }),
      (url) => ({ webhookUrl: `${url}/wallet` }),
      ({ received, queue }) =>
        Effect.gen(function*() {
          yield* queue.enqueue(credit(uuid(1)))
          yield* queue.enqueue(credit(uuid(2)))
          yield* eventually(() => received.length >= 2)
          yield* Effect.sleep(2500)
          const whileDown = received.length
          assert.isAtLeast(whileDown, 3, "probed while down")
          assert.strictEqual(queue.rows.get(uuid(1))?.attempts, 1, "failed probes are not counted")
          down = false
          const back = Date.now()
          yield* eventually(() => [...queue.rows.values()].every((row) => row.status === "delivered"), 3000)
          assert.isBelow(Date.now() - back, 2000)
        }),
      { schedule: [300, 300] }
    )
  }, 15_000)

  it.live("an operator that asked for time (Retry-After) is neither probed nor hurried before it", () =>
    withWorld(
      (r, res) =>
        JSON.parse(r.body).data.transactionId === uuid(1)
          ? (res.writeHead(429, { "retry-after": "30", "content-type": "application/json" }), res.end("{}"))
          : json(res, 200, { balance: "10.00" }),
      (url) => ({ webhookUrl: `${url}/wallet` }),
      ({ received, queue }) =>
        Effect.gen(function*() {
          yield* queue.enqueue(credit(uuid(1)))
          yield* eventually(() => received.length === 1)
          yield* queue.enqueue(credit(uuid(2)))
          yield* eventually(() => queue.rows.get(uuid(2))?.status === "delivered")
          yield* Effect.sleep(2500)
          assert.strictEqual(received.filter((r) => JSON.parse(r.body).data.transactionId === uuid(1)).length, 1)
        }),
      { schedule: [5, 300] }
    ), 15_000)
})
