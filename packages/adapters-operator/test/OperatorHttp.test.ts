import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { json, startOperator } from "@gateway/adapters-operator/testing"
import { lookup } from "node:dns/promises"
import { createServer, type ServerResponse } from "node:http"
import { hostname } from "node:os"
import { isNonPublicAddress } from "../src/http/AddressGuard.ts"
import * as OperatorHttp from "../src/http/OperatorHttp.ts"

const post = (allowPrivate: boolean, url: string, timeoutMs = 2000) =>
  Effect.scoped(Effect.flatMap(OperatorHttp.make(allowPrivate), (http) =>
    http.post(url, { "webhook-id": "msg_1" }, "{\"a\":1}", timeoutMs)))

/** The failure's tag and detail, or the answer's status. */
const outcome = (exit: Exit.Exit<OperatorHttp.OperatorAnswer, OperatorHttp.CallFailure>) => {
  if (Exit.isSuccess(exit)) return `HTTP ${exit.value.status}`
  const failure = Exit.findErrorOption(exit)
  return failure._tag === "Some" ? `${failure.value._tag}${"detail" in failure.value ? `: ${failure.value.detail}` : ""}` : "defect"
}

const withOperator = <A>(
  reply: Parameters<typeof startOperator>[0],
  f: (operator: Awaited<ReturnType<typeof startOperator>>) => Effect.Effect<A>
) => Effect.acquireUseRelease(Effect.promise(() => startOperator(reply)), f, (op) => Effect.promise(op.close))

/** A server that never answers and reports when a request's connection closes. */
const silentServer = Effect.acquireRelease(
  Effect.promise(async () => {
    const closed: Array<number> = []
    const received: Array<number> = []
    const server = createServer((req) => {
      received.push(Date.now())
      req.socket.on("close", () => closed.push(Date.now()))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const address = server.address()
    return { server, closed, received, port: typeof address === "object" && address !== null ? address.port : 0 }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  }))
)

const waitFor = (condition: () => boolean) =>
  Effect.promise(async () => {
    for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  })

describe("OperatorHttp against real servers on 127.0.0.1", () => {
  it.live("sends the JSON body with its headers and returns the status, headers and whole body of an answer in chunks", () =>
    withOperator((_r, res: ServerResponse) => {
      res.writeHead(201, { "content-type": "application/json", "x-answer": "yes" })
      res.write("{\"part\":\"")
      setTimeout(() => res.end("é\"}"), 20)
    }, (operator) =>
      Effect.gen(function*() {
        const exit = yield* Effect.exit(post(true, `${operator.url}/hook?x=1`))
        assert.isTrue(Exit.isSuccess(exit))
        if (!Exit.isSuccess(exit)) return
        assert.strictEqual(exit.value.status, 201)
        assert.strictEqual(exit.value.headers["x-answer"], "yes")
        assert.deepStrictEqual(JSON.parse(exit.value.body), { part: "é" })
        const [received] = operator.received
        assert.strictEqual(received?.method, "POST")
        assert.strictEqual(received?.url, "/hook?x=1")
        assert.strictEqual(received?.body, "{\"a\":1}")
        assert.strictEqual(received?.headers["content-type"], "application/json")
        assert.strictEqual(received?.headers["content-length"], "7")
        assert.strictEqual(received?.headers["webhook-id"], "msg_1")
      })))

  it.live("reads an answer of 64 KiB and refuses a larger one, declared or chunked", () =>
    withOperator((received, res) => {
      const size = received.url === "/exact" ? 64 * 1024 : 64 * 1024 + 1
      if (received.url === "/chunked") {
        res.writeHead(200)
        res.write("x".repeat(40 * 1024))
        res.end("x".repeat(size - 40 * 1024))
      } else json(res, 200, "x".repeat(size))
    }, (operator) =>
      Effect.gen(function*() {
        const exact = yield* Effect.exit(post(true, `${operator.url}/exact`))
        assert.strictEqual(Exit.isSuccess(exact) ? exact.value.body.length : 0, 64 * 1024)
        const tooLarge = "Unreachable: the operator's answer is larger than 64 KiB"
        assert.strictEqual(outcome(yield* Effect.exit(post(true, `${operator.url}/declared`))), tooLarge)
        assert.strictEqual(outcome(yield* Effect.exit(post(true, `${operator.url}/chunked`))), tooLarge)
      })))

  it.live("does not follow a redirect", () =>
    withOperator((_r, res) => {
      res.writeHead(302, { location: "/elsewhere" })
      res.end()
    }, (operator) =>
      Effect.gen(function*() {
        assert.strictEqual(outcome(yield* Effect.exit(post(true, `${operator.url}/hook`))), "HTTP 302")
        assert.deepStrictEqual(operator.received.map((r) => r.url), ["/hook"])
      })))

  it.live("times out after the time-out and closes the request's connection", () =>
    Effect.scoped(Effect.gen(function*() {
      const silent = yield* silentServer
      const started = Date.now()
      assert.strictEqual(outcome(yield* Effect.exit(post(true, `http://127.0.0.1:${silent.port}/`, 300))), "TimedOut")
      const elapsed = Date.now() - started
      assert.isAtLeast(elapsed, 290)
      assert.isBelow(elapsed, 1000)
      yield* waitFor(() => silent.closed.length > 0)
      assert.strictEqual(silent.closed.length, 1)
    })))

  it.live("an interrupted call closes its connection", () =>
    Effect.scoped(Effect.gen(function*() {
      const silent = yield* silentServer
      const fiber = yield* Effect.forkChild(post(true, `http://127.0.0.1:${silent.port}/`, 10_000))
      yield* waitFor(() => silent.received.length > 0)
      yield* Fiber.interrupt(fiber)
      yield* waitFor(() => silent.closed.length > 0)
      assert.strictEqual(silent.closed.length, 1)
    })))

  it.live("a port nobody listens on is Unreachable", () =>
    Effect.scoped(Effect.gen(function*() {
      const silent = yield* silentServer
      yield* Effect.promise(() => new Promise<void>((resolve) => silent.server.close(() => resolve())))
      assert.strictEqual(
        outcome(yield* Effect.exit(post(true, `http://127.0.0.1:${silent.port}/`))),
        "Unreachable: the operator's system could not be reached"
      )
    })))

  it.live("without allowPrivate: a loopback URL is refused before any connection, a name resolving to one when connecting", () =>
    withOperator((_r, res) => json(res, 200, {}), (operator) =>
      Effect.gen(function*() {
        const port = new URL(operator.url).port
        assert.strictEqual(
          outcome(yield* Effect.exit(post(false, `http://localhost:${port}/`))),
          "Refused: the operator URL points to a non-public address"
        )
        // The machine's own name is no literal: only its resolved address (loopback or private) shows what it is.
        const addresses = yield* Effect.promise(() => lookup(hostname(), { all: true }))
        assert.isTrue(addresses.length > 0 && addresses.every((a) => isNonPublicAddress(a.address)), "this machine's name resolves to a non-public address")
        assert.strictEqual(
          outcome(yield* Effect.exit(post(false, `http://${hostname()}:${port}/`))),
          "Refused: the operator URL resolves to a non-public address"
        )
        assert.strictEqual(operator.received.length, 0)
        assert.strictEqual(outcome(yield* Effect.exit(post(true, `http://127.0.0.1:${port}/`))), "HTTP 200")
        assert.strictEqual(operator.received.length, 1)
      })))
})
