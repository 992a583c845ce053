import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Result } from "effect"
import { GrantRequest } from "../src/FreeRound.ts"
import { cancelFreeRounds, checkExpiry, grantFreeRounds, listFreeRounds } from "../src/usecases/FreeRounds.ts"
import { openSession } from "../src/usecases/OpenSession.ts"
import { playRound } from "../src/usecases/PlayRound.ts"
import * as D from "../testing/index.ts"

const settings = { userDetailsUrl: "https://op.example/details", webhookUrl: "https://op.example/wallet", minimumStake: 1, maximumStake: 100 }
const merchant = D.makeMerchant({ MerchantSettings: D.makeSettings(settings) })
const log = (): D.LedgerLog => ({ begun: [], settled: [], refused: [], failed: [] })

const world = (ledger: D.LedgerLog) =>
  Layer.mergeAll(
    D.merchantRepo([merchant]),
    D.operatorDetails([], D.player("ETB")),
    D.sequentialIds,
    D.jsonVerifier,
    Layer.mergeAll(D.ledger(ledger), D.freeRounds).pipe(Layer.provideMerge(D.sessionRepo)),
    D.wallet,
    D.gameCatalog([D.oddEven]),
    D.fixedDraw(7)
  )

const request = (fields: Partial<typeof GrantRequest.Type> = {}): typeof GrantRequest.Type => ({
  campaignId: "welcome",
  playerId: D.makeClaims().sub,
  gameId: "odd-even",
  rounds: 3,
  stake: "2.00",
  expiresAt: "1970-01-08T00:00:00Z", // a week after the TestClock's start
  ...fields
})

describe("free rounds (CONTRACT §13)", () => {
  it.effect("a grant of 3 plays 3 rounds at its stake with no debit, then NO_FREE_ROUNDS; the session lists it", () => {
    const ledger = log()
    return Effect.gen(function*() {
      const grant = yield* grantFreeRounds(merchant, request())
      assert.strictEqual((yield* grantFreeRounds(merchant, request())).id, grant.id, "a retried grant is the first")
      const opened = yield* openSession(D.launchToken(D.makeClaims()))
      assert.deepStrictEqual(opened.freeRounds.map((f) => [f.grantId, f.remaining, f.stake]), [[grant.id, 3, "2.00"]])
      const results = []
      for (let i = 0; i < 3; i++) {
        results.push(yield* playRound(opened.sessionToken, { selection: "odd", freeRound: true }))
      }
      assert.deepStrictEqual(results.map((r) => [r.payout, r.balance, r.freeRound?.remaining]), [
        ["3.90", undefined, 2], ["3.90", undefined, 1], ["3.90", undefined, 0]
      ])
      assert.deepStrictEqual(ledger.begun, [], "no paid round begun: no debit")
      const more = yield* Effect.exit(playRound(opened.sessionToken, { selection: "odd", freeRound: true }))
      assert.strictEqual(D.errorTag(more), "NoFreeRounds")
      const listed = yield* listFreeRounds(merchant, request().playerId, { page: 1, limit: 20 })
      assert.deepStrictEqual(listed.data.map((g) => [g.status, g.remaining]), [["used", 0]])
    }).pipe(Effect.provide(world(ledger)))
  })

  it.effect("a cancelled grant plays no more; a stake with freeRound, or no stake without it, is ValidationFailed", () =>
    Effect.gen(function*() {
      const grant = yield* grantFreeRounds(merchant, request())
      const opened = yield* openSession(D.launchToken(D.makeClaims()))
      const withStake = yield* Effect.exit(playRound(opened.sessionToken, { stake: "2", selection: "odd", freeRound: true }))
      assert.strictEqual(D.errorTag(withStake), "ValidationFailed")
      assert.strictEqual(D.errorTag(yield* Effect.exit(playRound(opened.sessionToken, { selection: "odd" }))), "ValidationFailed")
      assert.strictEqual((yield* cancelFreeRounds(merchant, grant.id)).status, "cancelled")
      const after = yield* Effect.exit(playRound(opened.sessionToken, { selection: "odd", freeRound: true }))
      assert.strictEqual(D.errorTag(after), "NoFreeRounds")
      const demo = yield* openSession(D.launchToken(D.makeClaims({ mode: "demo" })))
      assert.deepStrictEqual(demo.freeRounds, [])
    }).pipe(Effect.provide(world(log()))))

  it.effect("a grant's stake is within the merchant's limits and its game has an engine", () =>
    Effect.gen(function*() {
      for (const stake of ["0.50", "101", "1.001", "0"]) {
        assert.strictEqual(D.errorTag(yield* Effect.exit(grantFreeRounds(merchant, request({ stake })))), "ValidationFailed", stake)
      }
      assert.strictEqual(D.errorTag(yield* Effect.exit(grantFreeRounds(merchant, request({ gameId: "lotto" })))), "GameNotFound")
    }).pipe(Effect.provide(world(log()))))

  it("expiresAt: after now and at most 365 days ahead, an ISO date-time with offset", () => {
    const now = DateTime.makeUnsafe(Date.UTC(2026, 10, 27))
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 27) + ms).toISOString()
    const day = 86_400_000
    for (const [text, ok] of [[at(1), true], [at(365 * day), true], [at(0), false], [at(-1), false], [at(365 * day + 1), false],
      ["2026-12-01", false], ["2026-12-01T00:00:00+02:00", true], ["2026-13-01T00:00:00Z", false]] as const) {
      assert.strictEqual(Result.isSuccess(checkExpiry(text, now)), ok, text)
    }
  })
})
