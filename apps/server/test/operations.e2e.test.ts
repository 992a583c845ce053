import { Effect, Exit, Scope } from "effect"
import { afterAll, assert, describe, it } from "vitest"
import { type Gateway, gateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
const start = (env: Record<string, string> = {}): Promise<Gateway> => Effect.runPromise(Scope.provide(scope)(gateway(env)))

/** The gateway's JSON log lines. */
const lines = (gw: Gateway): Array<Record<string, unknown>> =>
  gw.output().split("\n").filter((line) => line.startsWith("{")).map((line): Record<string, unknown> => JSON.parse(line))

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
})
