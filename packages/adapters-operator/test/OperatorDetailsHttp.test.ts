import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Redacted } from "effect"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { OperatorDetails } from "@gateway/domain/ports/OperatorDetails"
import { makeMerchant, makeMerchantRepo } from "@gateway/domain/testing"
import { json, type Received, startOperator } from "@gateway/adapters-operator/testing"
import { createPublicKey, verify } from "node:crypto"
import { Webhook } from "standardwebhooks"
import * as IdsNode from "../src/crypto/IdsNode.ts"
import * as OperatorDetailsHttp from "../src/details/OperatorDetailsHttp.ts"
import * as OperatorCircuit from "../src/http/OperatorCircuit.ts"
import { credentials, secrets, signedHeaders, signedPost } from "./fixtures.ts"

const merchant = makeMerchant()
const request = { playerId: "p-1", sessionId: "s-1", gameId: "odd-even", mode: "real" as const }

const client = (timeoutMs: number, allowPrivate = true) =>
  OperatorDetailsHttp.layer(timeoutMs).pipe(
    Layer.provide([signedPost(allowPrivate), IdsNode.layer]),
    Layer.provide(Layer.succeed(MerchantRepo, makeMerchantRepo([merchant], secrets).service))
  )

const call = (url: string, timeoutMs = 2000, allowPrivate = true) =>
  OperatorDetails.use((d) => d.fetch(merchant, url, request)).pipe(
    Effect.provide(client(timeoutMs, allowPrivate)),
    Effect.exit
  )

/** One client with a breaker in memory (3 failures in a row, open for 400 ms) for the whole of `effect`. */
const withBreaker = <A, E>(effect: Effect.Effect<A, E, OperatorDetails>) =>
  effect.pipe(
    Effect.provide(
      OperatorDetailsHttp.layer(2000).pipe(
        Layer.provide([
          signedPost(true, OperatorCircuit.layerMemory({ failures: 3, openMs: 400 })),
          IdsNode.layer
        ]),
        Layer.provide(Layer.succeed(MerchantRepo, makeMerchantRepo([merchant], secrets).service))
      )
    )
  )

const tagOf = (exit: Exit.Exit<unknown, { readonly _tag: string }>) =>
  Exit.isSuccess(exit) ? "success" : Exit.findErrorOption(exit).pipe((o) => (o._tag === "Some" ? o.value._tag : "defect"))

const withOperator = <A>(reply: Parameters<typeof startOperator>[0], f: (url: string, received: Array<Received>) => Effect.Effect<A>) =>
  Effect.acquireUseRelease(
    Effect.promise(() => startOperator(reply)),
    (op) => f(op.url, op.received),
    (op) => Effect.promise(op.close)
  )

describe("OperatorDetailsHttp against a real operator on 127.0.0.1", () => {
  it.live("sends a signed request that verifies with standardwebhooks and with the publicKey", () =>
    withOperator((_r, res) => json(res, 200, { playerId: "p-1", currency: "ETB", balance: "10.00" }), (url, received) =>
      Effect.gen(function*() {
        const exit = yield* call(`${url}/details`)
        assert.strictEqual(tagOf(exit), "success")
        const [r] = received
        assert.isDefined(r)
        if (r === undefined) return
        assert.deepStrictEqual(JSON.parse(r.body), request)
        const headers = signedHeaders(r.headers)
        assert.match(headers["webhook-id"], /^msg_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        new Webhook(Redacted.value(credentials.encryptionKey)).verify(r.body, headers)
        const v1a = headers["webhook-signature"].split(" ").find((s) => s.startsWith("v1a,"))?.slice(4) ?? ""
        const content = `${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${r.body}`
        assert.isTrue(verify(null, Buffer.from(content), createPublicKey(credentials.publicKey), Buffer.from(v1a, "base64")))
        assert.throws(() => new Webhook(Redacted.value(credentials.encryptionKey)).verify(r.body + " ", headers))
      })))

  it.live("gives OperatorTimeout within the time-out plus a small margin when the operator is slow", () =>
    withOperator((_r, res) => { setTimeout(() => json(res, 200, {}), 3000) }, (url) =>
      Effect.gen(function*() {
        const started = Date.now()
        const exit = yield* call(url, 300)
        const elapsed = Date.now() - started
        assert.strictEqual(tagOf(exit), "OperatorTimeout")
        assert.isBelow(elapsed, 1500)
      })))

  for (const [what, reply, tag] of [
    ["a 404", (res: Parameters<typeof json>[0]) => json(res, 404, { error: "unknown player" }), "PlayerRejected"],
    ["a 403", (res: Parameters<typeof json>[0]) => json(res, 403, {}), "PlayerRejected"],
    ["a 500", (res: Parameters<typeof json>[0]) => json(res, 500, {}), "OperatorBadResponse"],
    ["a redirect", (res: Parameters<typeof json>[0]) => { res.writeHead(302, { location: "http://example.com" }); res.end() }, "OperatorBadResponse"],
    ["garbage", (res: Parameters<typeof json>[0]) => json(res, 200, "<html>not json"), "OperatorBadResponse"],
    ["another player's details", (res: Parameters<typeof json>[0]) => json(res, 200, { playerId: "p-2", currency: "ETB", balance: "1" }), "OperatorBadResponse"],
    ["a float balance", (res: Parameters<typeof json>[0]) => json(res, 200, { playerId: "p-1", currency: "ETB", balance: 1.5 }), "OperatorBadResponse"]
  ] as const) {
    it.live(`maps ${what} to ${tag}`, () =>
      withOperator((_r, res) => reply(res), (url) =>
        Effect.gen(function*() {
          assert.strictEqual(tagOf(yield* call(url)), tag)
        })))
  }

  it.live("maps a refused connection to OperatorBadResponse", () =>
    Effect.gen(function*() {
      const op = yield* Effect.promise(() => startOperator((_r, res) => json(res, 200, {})))
      yield* Effect.promise(op.close)
      assert.strictEqual(tagOf(yield* call(op.url)), "OperatorBadResponse")
    }))

  it.live("after 3 failures in a row fails fast with OperatorUnavailable without calling, then one probe closes the circuit", () => {
    let status = 500
    return withOperator((_r, res) => json(res, status, { playerId: "p-1", currency: "ETB", balance: "1.00" }), (url, received) =>
      withBreaker(Effect.gen(function*() {
        const fetch = () => Effect.exit(OperatorDetails.use((d) => d.fetch(merchant, `${url}/details`, request)))
        // 4xx answers are the operator's answers, not an outage: they never open the circuit.
        status = 404
        for (let n = 0; n < 4; n++) assert.strictEqual(tagOf(yield* fetch()), "PlayerRejected")
        status = 500
        for (let n = 0; n < 3; n++) assert.strictEqual(tagOf(yield* fetch()), "OperatorBadResponse")
        const refused = yield* fetch()
        assert.strictEqual(tagOf(refused), "OperatorUnavailable")
        assert.strictEqual(received.length, 7, "the refused call never reached the operator")
        const error = Exit.findErrorOption(refused)
        assert.strictEqual(error._tag === "Some" && error.value._tag === "OperatorUnavailable" ? error.value.retryAfterSeconds : 0, 1)
        status = 200
        yield* Effect.sleep(450)
        assert.strictEqual(tagOf(yield* fetch()), "success", "the probe after the open time")
        assert.strictEqual(tagOf(yield* fetch()), "success")
        assert.strictEqual(received.length, 9)
      })))
  })

  it.live("refuses private, loopback and metadata addresses by default, without sending anything", () =>
    withOperator((_r, res) => json(res, 200, { playerId: "p-1", currency: "ETB", balance: "1" }), (url, received) =>
      Effect.gen(function*() {
        const port = new URL(url).port
        for (const target of [url, `http://localhost:${port}`, "http://10.1.2.3/", "http://192.168.1.1/",
          "http://169.254.169.254/latest/meta-data", `http://[::1]:${port}/`, "http://0.0.0.0/", "http://[::ffff:127.0.0.1]/",
          "http://172.16.0.1/", "ftp://example.com/"]) {
          const exit = yield* call(target, 2000, false)
          assert.strictEqual(tagOf(exit), "OperatorBadResponse", target)
        }
        assert.strictEqual(received.length, 0)
      })))
})
