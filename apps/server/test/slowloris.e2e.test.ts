import { Effect, Exit, Scope } from "effect"
import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Gateway, gateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
let gw: Gateway
let port: number

beforeAll(async () => {
  gw = await Effect.runPromise(Scope.provide(scope)(gateway({
    HTTP_HEADERS_TIMEOUT_MS: "1500",
    HTTP_REQUEST_TIMEOUT_MS: "3000",
    MAX_CONNECTIONS_PER_ADDRESS: "8"
  })))
  port = Number(new URL(gw.url).port)
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

/** A raw connection from `localAddress` (any 127.x address reaches the server's 127.0.0.1 on Linux). */
const open = (localAddress = "127.0.0.1") =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress }, () => resolve(socket))
    socket.once("error", reject)
  })

/** Milliseconds until the server ends the connection (its answer, if any, read), or `limit` if it does not. */
const closedWithin = (socket: Socket, limit: number) =>
  new Promise<{ ms: number; answer: string }>((resolve) => {
    const started = Date.now()
    let answer = ""
    socket.on("data", (chunk) => void (answer += chunk.toString()))
    socket.on("error", () => {})
    const timer = setTimeout(() => resolve({ ms: limit, answer }), limit)
    socket.once("close", () => {
      clearTimeout(timer)
      resolve({ ms: Date.now() - started, answer })
    })
  })

/** Writes `chunks` one every `everyMs` while the socket is open. */
const trickle = (socket: Socket, chunks: ReadonlyArray<string>, everyMs: number) => {
  let i = 0
  const timer = setInterval(() => {
    if (i >= chunks.length || socket.destroyed) return clearInterval(timer)
    socket.write(chunks[i++] ?? "")
  }, everyMs)
  socket.once("close", () => clearInterval(timer))
}

const health = async (localAddress?: string) => {
  const socket = await open(localAddress)
  socket.write("GET /health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
  return (await closedWithin(socket, 5000)).answer
}

/** Waits for the server to close `socket` within HTTP_HEADERS_TIMEOUT_MS (and a check interval), answering 408. */
const timedOut = async (socket: Socket) => {
  const { ms, answer } = await closedWithin(socket, 10_000)
  expect(ms).toBeLessThan(1500 + 1500)
  expect(answer).toMatch(/^HTTP\/1\.1 408 /)
  expect(answer).toContain('"code":"REQUEST_TIMEOUT"')
}

describe("slow clients (slowloris) and connections per address", () => {
  it("cuts a client that trickles its headers once HTTP_HEADERS_TIMEOUT_MS has passed", async () => {
    const socket = await open()
    socket.write("GET /health HTTP/1.1\r\nhost: x\r\n")
    trickle(socket, Array.from({ length: 100 }, (_, n) => `x-slow-${n}: 1\r\n`), 200)
    await timedOut(socket)
  })

  it("closes a connection that sent nothing within HTTP_HEADERS_TIMEOUT_MS with 408, which a browser's preconnected socket takes as 'send it again'", async () => {
    // Browsers open connections ahead of need. A request put on one just as the gateway closed it read the gateway's
    // answer: a 400 ("could not be parsed") reached the page as the request's own answer, where 408 makes Chromium
    // send it again on a new connection.
    const socket = await open()
    await timedOut(socket)
  })

  it("answers bytes that are not HTTP with 400 naming the parser's reason", async () => {
    const garbage = await open()
    garbage.write("GET /health HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n")
    const { answer } = await closedWithin(garbage, 5000)
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toContain("application/problem+json")
    expect(answer).toMatch(/"detail":"the request could not be parsed \([^)]+\)"/)
  })

  it("cuts a client that trickles its body once HTTP_REQUEST_TIMEOUT_MS has passed", async () => {
    const socket = await open()
    socket.write("POST /api/v1.1/game-api/sessions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n")
    trickle(socket, Array.from({ length: 100 }, () => " "), 200)
    const { ms } = await closedWithin(socket, 12_000)
    expect(ms).toBeLessThan(3000 + 1500)
  })

  it("refuses connections beyond MAX_CONNECTIONS_PER_ADDRESS from one address, and still serves others", async () => {
    const held = await Promise.all(Array.from({ length: 8 }, () => open("127.0.0.3")))
    for (const socket of held) socket.write("GET /health HTTP/1.1\r\nhost: x\r\n")
    const extra = await open("127.0.0.3")
    const refused = await closedWithin(extra, 3000)
    expect(refused.ms).toBeLessThan(3000)
    expect(refused.answer).toBe("")
    expect(await health("127.0.0.4")).toMatch(/^HTTP\/1\.1 200/)
    for (const socket of held) socket.destroy()
    await new Promise((r) => setTimeout(r, 200))
    expect(await health("127.0.0.3")).toMatch(/^HTTP\/1\.1 200/)
  })
})
