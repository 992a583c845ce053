import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import { LaunchClaims } from "../src/LaunchToken.ts"
import { MerchantId } from "../src/Merchant.ts"
import { nextDelay, defaultSchedule } from "../src/RetrySchedule.ts"
import { openSession } from "../src/usecases/OpenSession.ts"
import { playRound } from "../src/usecases/PlayRound.ts"
import { webhookUrlFor } from "../src/Wallet.ts"
import { CallbackEventType, deliveryUrlFor, destinationOf, isMessageType, MessageType } from "../src/Callback.ts"
import * as D from "../testing/index.ts"
import { fixedDraw, freeRounds, jsonVerifier, launchToken, ledger, type LedgerLog, sessionRepo, wallet } from "../testing/index.ts"

const settings = { userDetailsUrl: "https://op.example/details", webhookUrl: "https://op.example/wallet", minimumStake: 1, maximumStake: 100 }
const merchant = D.makeMerchant({ MerchantSettings: D.makeSettings(settings) })
const noWebhook = D.makeMerchant({ id: MerchantId.make(9), email: "x@example.com", MerchantSettings: D.makeSettings({ userDetailsUrl: settings.userDetailsUrl }) })

const claims = D.makeClaims

const world = (log: LedgerLog, draw = 7) =>
  Layer.mergeAll(
    D.merchantRepo([merchant, noWebhook]),
    D.operatorDetails([], D.player("ETB")),
    D.sequentialIds,
    jsonVerifier,
        Layer.mergeAll(ledger(log), freeRounds).pipe(Layer.provideMerge(sessionRepo)),
    wallet,
    D.gameCatalog([D.oddEven]),
    fixedDraw(draw)
  )
const newLog = (): LedgerLog => ({ begun: [], settled: [], refused: [], failed: [] })

const play = (fields: Partial<LaunchClaims>, stake: string, selection = "odd") =>
  Effect.gen(function*() {
    const opened = yield* openSession(launchToken(claims(fields)))
    return yield* playRound(opened.sessionToken, { stake, selection })
  })

describe("openSession", () => {
  it.effect("redeems a token once, with the player's balance in real mode and a virtual one in demo", () =>
    Effect.gen(function*() {
      const c = claims()
      const opened = yield* openSession(launchToken(c))
      assert.strictEqual(opened.balance, "100.00")
      assert.strictEqual(opened.settings.minimumStake, 1)
      assert.strictEqual(D.errorTag(yield* openSession(launchToken(c)).pipe(Effect.exit)), "TokenAlreadyUsed")
      const demo = yield* openSession(launchToken(claims({ mode: "demo" })))
      assert.strictEqual(demo.balance, "1000.00")
      assert.strictEqual(D.errorTag(yield* openSession("garbage").pipe(Effect.exit)), "Unauthorized")
      assert.strictEqual(D.errorTag(yield* openSession(launchToken(claims({ exp: 1 }))).pipe(Effect.exit)), "Unauthorized")
    }).pipe(Effect.provide(world(newLog()))))
})

describe("playRound", () => {
  it.effect("a round whose player goes away while the debit is out is still carried to its end", () => {
    const log = newLog()
    return Effect.gen(function*() {
      const opened = yield* openSession(launchToken(claims({ sub: "slow" })))
      const round = yield* Effect.forkChild(playRound(opened.sessionToken, { stake: "10", selection: "odd" }))
      yield* Effect.yieldNow
      assert.strictEqual(log.begun.length, 1)
      yield* Effect.forkChild(Fiber.interrupt(round))
      yield* TestClock.adjust("1 second")
      const exit = yield* Fiber.await(round)
      assert.isTrue(Exit.hasInterrupts(exit))
      assert.strictEqual(log.settled.length, 1, "the debit's answer is booked and its credit queued")
    }).pipe(Effect.provide(world(log)))
  })

  it.effect("a win: debit recorded before it is sent, then settled with a credit that references the debit", () => {
    const log = newLog()
    return Effect.gen(function*() {
      const result = yield* play({}, "10.00", "odd")
      assert.deepStrictEqual(
        { ...result, roundId: "" },
        {
          roundId: "",
          gameId: "odd-even",
          outcome: { number: 7, parity: "odd", summary: "7 odd" },
          payout: "19.50",
          balance: "109.50",
          fairness: { serverSeedHash: "hash(seed-0001)", clientSeed: "seed-0002", nonce: 0 }
        }
      )
      assert.deepStrictEqual(log.begun, [result.roundId])
      const [settled] = log.settled
      assert.strictEqual(settled?.credit.type, "transaction.credit")
      assert.strictEqual(settled?.credit.amount.minor, 1950n)
      assert.isTrue(settled?.credit.roundClosed)
      assert.isString(settled?.credit.refTransactionId)
    }).pipe(Effect.provide(world(log)))
  })

  it.effect("a loss closes the round with a credit of 0.00", () => {
    const log = newLog()
    return Effect.gen(function*() {
      const result = yield* play({}, "10", "even")
      assert.strictEqual(result.payout, "0.00")
      assert.strictEqual(log.settled[0]?.credit.amount.minor, 0n)
    }).pipe(Effect.provide(world(log)))
  })

  it.effect("a refused debit closes the round as refused and queues nothing", () => {
    const log = newLog()
    return Effect.gen(function*() {
      assert.strictEqual(D.errorTag(yield* play({ sub: "broke" }, "10").pipe(Effect.exit)), "BetRefused")
      assert.strictEqual(log.refused.length, 1)
      assert.strictEqual(log.settled.length + log.failed.length, 0)
    }).pipe(Effect.provide(world(log)))
  })

  it.effect("a debit with an unknown outcome fails the round and queues a refund of the stake", () => {
    const log = newLog()
    return Effect.gen(function*() {
      assert.strictEqual(D.errorTag(yield* play({ sub: "offline" }, "10").pipe(Effect.exit)), "WalletUnavailable")
      const [failed] = log.failed
      assert.strictEqual(failed?.refund.type, "transaction.refund")
      assert.strictEqual(failed?.refund.amount.minor, 1000n)
      assert.strictEqual(log.settled.length, 0)
    }).pipe(Effect.provide(world(log)))
  })

  it.effect("a debit not sent because the operator's circuit is open closes the round as refused: no refund is queued", () => {
    const log = newLog()
    return Effect.gen(function*() {
      const exit = yield* play({ sub: "paused" }, "10").pipe(Effect.exit)
      assert.strictEqual(D.errorTag(exit), "OperatorUnavailable")
      assert.strictEqual(log.refused.length, 1)
      assert.strictEqual(log.settled.length + log.failed.length, 0)
    }).pipe(Effect.provide(world(log)))
  })

  it.effect("refuses bad stakes and selections before any money moves", () => {
    const log = newLog()
    return Effect.gen(function*() {
      for (const [stake, selection, tag] of [["0.50", "odd", "ValidationFailed"], ["100.01", "odd", "ValidationFailed"],
        ["1.001", "odd", "ValidationFailed"], ["-1", "odd", "ValidationFailed"], ["10", "seven", "ValidationFailed"]] as const) {
        assert.strictEqual(D.errorTag(yield* play({}, stake, selection).pipe(Effect.exit)), tag, stake)
      }
      assert.strictEqual(D.errorTag(yield* play({ mid: MerchantId.make(9) }, "10").pipe(Effect.exit)), "WebhookUrlNotSet")
      assert.strictEqual(log.begun.length, 0)
      assert.strictEqual(D.errorTag(yield* playRound("nope", { stake: "1", selection: "odd" }).pipe(Effect.exit)), "SessionExpired")
    }).pipe(Effect.provide(world(log)))
  })

  it.effect("demo rounds move only the virtual balance and refuse stakes above it", () => {
    const log = newLog()
    return Effect.gen(function*() {
      const opened = yield* openSession(launchToken(claims({ mode: "demo" })))
      const win = yield* playRound(opened.sessionToken, { stake: "100", selection: "odd" })
      assert.strictEqual(win.balance, "1095.00")
      assert.strictEqual(log.begun.length, 0)
      const merchantBig = yield* playRound(opened.sessionToken, { stake: "100", selection: "even" })
      assert.strictEqual(merchantBig.balance, "995.00")
    }).pipe(Effect.provide(world(log)))
  })
})

describe("webhook routing and retries", () => {
  it("sends to the type's own URL only when isSeperateWebhookUrl is true", () => {
    const separate = D.makeSettings({ webhookUrl: "https://w.example/", creditWebhookUrl: "https://c.example/", isSeperateWebhookUrl: true })
    assert.strictEqual(webhookUrlFor(separate, "transaction.credit"), "https://c.example/")
    assert.strictEqual(webhookUrlFor(separate, "transaction.debit"), "https://w.example/")
    assert.strictEqual(webhookUrlFor(D.makeSettings({ webhookUrl: "https://w.example/", creditWebhookUrl: "https://c.example/" }), "transaction.credit"), "https://w.example/")
    assert.isUndefined(webhookUrlFor(D.makeSettings(), "transaction.refund"))
  })

  it("sends every callback type to callbackUrl and every wallet type to the wallet's URL", () => {
    const settings = D.makeSettings({ webhookUrl: "https://w.example/", callbackUrl: "https://cb.example/" })
    for (const type of MessageType.literals) {
      const callback = (CallbackEventType.literals as ReadonlyArray<string>).includes(type)
      assert.strictEqual(destinationOf(type), callback ? "callback" : "wallet", type)
      assert.strictEqual(deliveryUrlFor(settings, type), callback ? "https://cb.example/" : "https://w.example/", type)
    }
    assert.isUndefined(deliveryUrlFor(D.makeSettings({ webhookUrl: "https://w.example/" }), "round.settled"))
    // The outbox's guard of a claimed row's type: every type, and nothing else.
    for (const u of [...MessageType.literals, "session.Started", "", undefined, 1]) assert.strictEqual(isMessageType(u), Schema.is(MessageType)(u), String(u))
  })

  it.prop("each delay stays within ±10 % of the schedule, honours Retry-After, and the schedule ends", [
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })),
    Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 0.999 })),
    Schema.UndefinedOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100_000 })))
  ], ([attempt, jitter, retryAfter]) => {
    const delay = nextDelay(defaultSchedule, attempt, jitter, retryAfter)
    const base = defaultSchedule[attempt - 1]
    if (base === undefined) return assert.isUndefined(delay)
    assert.isDefined(delay)
    assert.isAtLeast(delay ?? 0, Math.max(base * 0.9, retryAfter ?? 0) - 1e-9)
    assert.isAtMost(delay ?? 0, Math.max(base * 1.1, retryAfter ?? 0) + 1e-9)
  })
})
