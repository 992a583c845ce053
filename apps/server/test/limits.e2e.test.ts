import { adminToken, call } from "@gateway/adapters-http/testing"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Gateway, gateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
let gw: Gateway

beforeAll(async () => {
  gw = await Effect.runPromise(Scope.provide(scope)(gateway({ MAX_BODY_BYTES: "2048" })))
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

describe("the running server's limits", () => {
  it("refuses bodies over MAX_BODY_BYTES with 413, and takes bodies under it", async () => {
    const create = async (companyName: string) =>
      call(`${gw.url}/api/v1.1/operator-api/create`, {
        method: "POST",
        headers: { authorization: `Bearer ${await adminToken(gw.authSecret)}` },
        json: { countryCodes: ["ET"], companyName, email: `limits-${companyName.length}@example.com`, providerId: 1 }
      })
    const large = await create("L".repeat(3000))
    expect(large.status).toBe(413)
    expect(large.body).toMatchObject({ code: "PAYLOAD_TOO_LARGE" })
    const small = await create("Small Operator")
    expect(small.status).toBe(201)
    expect(small.headers.get("cache-control")).toBe("no-store")
  })

  it("answers a request head over 32 KiB with 431 problem+json, and takes one of 24 KiB", async () => {
    const big = await call(`${gw.url}/health`, { headers: { "x-padding": "p".repeat(40 * 1024) } })
    expect(big.status).toBe(431)
    expect(big.headers.get("content-type")).toBe("application/problem+json")
    expect(big.body).toMatchObject({ success: false, status: 431, code: "HEADERS_TOO_LARGE" })
    expect((await call(`${gw.url}/health`, { headers: { "x-padding": "p".repeat(24 * 1024) } })).status).toBe(200)
  })
})
