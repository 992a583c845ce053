import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { OperatorBadResponse } from "../src/Operator.ts"
import type { DetailsRequest } from "../src/Player.ts"
import { openSession } from "../src/usecases/OpenSession.ts"
import * as D from "../testing/index.ts"

const merchant = D.makeMerchant({ MerchantSettings: D.makeSettings({ userDetailsUrl: "https://op.example/details" }) })
const claims = D.makeClaims

const world = (calls: Array<DetailsRequest>, failing: { value: boolean }) =>
  Layer.mergeAll(
    D.merchantRepo([merchant]),
    D.operatorDetails(calls, (request) =>
      failing.value ? Effect.fail(new OperatorBadResponse({ detail: "HTTP 500" })) : D.player("ETB")(request)),
    D.jsonVerifier,
    D.freeRounds.pipe(Layer.provideMerge(D.sessionRepo)),
    D.gameCatalog([D.oddEven]),
    D.fixedDraw(7)
  )

describe("openSession: a used launch link calls nothing (CONTRACT §6)", () => {
  it.effect("replays of a redeemed link, expired and forged links never ask the Details URL", () => {
    const calls: Array<DetailsRequest> = []
    return Effect.gen(function*() {
      const token = D.launchToken(claims())
      assert.strictEqual(D.errorTag(yield* Effect.exit(openSession(token))), "success")
      for (let i = 0; i < 20; i++) assert.strictEqual(D.errorTag(yield* Effect.exit(openSession(token))), "TokenAlreadyUsed")
      assert.strictEqual(D.errorTag(yield* Effect.exit(openSession(D.launchToken(claims({ exp: 1 }))))), "Unauthorized")
      assert.strictEqual(D.errorTag(yield* Effect.exit(openSession("forged"))), "Unauthorized")
      assert.strictEqual(calls.length, 1)
    }).pipe(Effect.provide(world(calls, { value: false })))
  })

  it.effect("a failed re-check gives the link back: it redeems once the operator answers again", () => {
    const calls: Array<DetailsRequest> = []
    const failing = { value: true }
    return Effect.gen(function*() {
      const token = D.launchToken(claims())
      assert.strictEqual(D.errorTag(yield* Effect.exit(openSession(token))), "OperatorBadResponse")
      failing.value = false
      assert.strictEqual(D.errorTag(yield* Effect.exit(openSession(token))), "success")
      assert.strictEqual(D.errorTag(yield* Effect.exit(openSession(token))), "TokenAlreadyUsed")
      assert.strictEqual(calls.length, 2)
    }).pipe(Effect.provide(world(calls, failing)))
  })
})
