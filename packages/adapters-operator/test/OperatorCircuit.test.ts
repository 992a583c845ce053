import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Layer, Logger, References } from "effect"
import { CircuitBreaker } from "effect/persistence"
import { TestClock } from "effect/testing"
import { MerchantId } from "@gateway/domain/Merchant"
import * as OperatorCircuit from "../src/http/OperatorCircuit.ts"
import type { CallFailure, OperatorAnswer } from "../src/http/OperatorHttp.ts"

const options = { failures: 2, openMs: 1000 }
const a = MerchantId.make(1)
const b = MerchantId.make(2)

const answer = (status: number): Effect.Effect<OperatorAnswer, CallFailure> =>
  Effect.succeed({ status, headers: {}, body: "{}" })
const timedOut: Effect.Effect<OperatorAnswer, CallFailure> = Effect.fail({ _tag: "TimedOut" })
const unreachable: Effect.Effect<OperatorAnswer, CallFailure> = Effect.fail({ _tag: "Unreachable", detail: "down" })
const refused: Effect.Effect<OperatorAnswer, CallFailure> = Effect.fail({ _tag: "Refused", detail: "private" })

/** What a guarded call gave: the status answered, the failure's tag, or `paused <ms>` (never called). */
const seen = (exit: Exit.Exit<OperatorAnswer, CallFailure | OperatorCircuit.Paused>): string =>
  Exit.isSuccess(exit)
    ? String(exit.value.status)
    : Exit.findErrorOption(exit).pipe((o) =>
      o._tag === "None" ? "interrupted" : o.value._tag === "Paused" ? `paused ${o.value.retryAfterMs}` : o.value._tag
    )

/**
 * One script of calls and clock moves, what each gave, for a breaker of 2 failures in a row and 1 s open. Both
 * implementations run it: the in-process one (`layerMemory`, what a gateway without Redis uses) must answer as the
 * breaker over a `CircuitBreakerStore` (`layer`, what instances sharing Redis use) does over the in-memory store.
 */
const script = Effect.gen(function*() {
  const circuit = yield* OperatorCircuit.OperatorCircuit
  const out: Array<string> = []
  let calls = 0
  const guarded = (merchantId: MerchantId, call: Effect.Effect<OperatorAnswer, CallFailure>) =>
    circuit.guard(merchantId, Effect.suspend(() => (calls++, call))).pipe(Effect.exit, Effect.map(seen))
  const step = (label: string, merchantId: MerchantId, call: Effect.Effect<OperatorAnswer, CallFailure>) =>
    Effect.map(guarded(merchantId, call), (result) => void out.push(`${label}: ${result}`))

  // Answers, even 4xx, are not outages; a refused address says nothing of the operator; a 5xx and a failure do.
  yield* step("404", a, answer(404))
  yield* step("refused", a, refused)
  yield* step("503", a, answer(503))
  yield* step("200 resets the streak", a, answer(200))
  yield* step("timed out", a, timedOut)
  yield* step("refused between", a, refused)
  yield* step("unreachable: opens", a, unreachable)
  const before = calls
  yield* step("while open", a, answer(200))
  yield* step("another merchant", b, answer(200))
  yield* TestClock.adjust(400)
  yield* step("400 ms later", a, answer(200))
  out.push(`calls while open: ${calls - before - 1}`)
  yield* TestClock.adjust(600)

  // Half-open: one probe at a time; a probe that fails opens it again for the whole time.
  const held = yield* Deferred.make<void>()
  const probe = yield* Effect.forkChild(guarded(a, Effect.andThen(Deferred.await(held), timedOut)))
  yield* Effect.yieldNow
  yield* step("while probing", a, answer(200))
  yield* Deferred.succeed(held, undefined)
  out.push(`probe: ${yield* Fiber.join(probe)}`)
  yield* step("after the failed probe", a, answer(200))
  yield* TestClock.adjust(1000)

  // An interrupted probe lets the next call probe.
  const hung = yield* Effect.forkChild(guarded(a, Effect.never))
  yield* Effect.yieldNow
  yield* step("while the probe hangs", a, answer(200))
  yield* Fiber.interrupt(hung)
  yield* step("probe after the interrupted one: 503 opens again", a, answer(503))
  yield* step("while open again", a, answer(200))
  yield* TestClock.adjust(1000)
  yield* step("probe: 200 closes", a, answer(200))
  yield* step("closed", a, answer(200))

  // Open again soon after: its openings in a row go on; the time open stays the same.
  yield* step("503", a, answer(503))
  yield* step("503: opens", a, answer(503))
  yield* step("while open", a, answer(200))
  yield* TestClock.adjust(1000)
  yield* step("probe: 500 opens again", a, answer(500))
  yield* TestClock.adjust(999)
  yield* step("1 ms before the end", a, answer(200))
  return out
})

const expected = [
  "404: 404",
  "refused: Refused",
  "503: 503",
  "200 resets the streak: 200",
  "timed out: TimedOut",
  "refused between: Refused",
  "unreachable: opens: Unreachable",
  "while open: paused 1000",
  "another merchant: 200",
  "400 ms later: paused 600",
  "calls while open: 0",
  "while probing: paused 1000",
  "probe: TimedOut",
  "after the failed probe: paused 1000",
  "while the probe hangs: paused 1000",
  "probe after the interrupted one: 503 opens again: 503",
  "while open again: paused 1000",
  "probe: 200 closes: 200",
  "closed: 200",
  "503: 503",
  "503: opens: 503",
  "while open: paused 1000",
  "probe: 500 opens again: 500",
  "1 ms before the end: paused 1"
]

/** What the operators' ops see: each transition's log line, at its level, with the merchant and the openings in a row. */
const loggedTransitions = [
  "WARN operator circuit open: its calls fail fast until a probe succeeds merchantId=1 openForMs=1000 openings=1",
  "DEBUG operator circuit half-open: one call probes the operator merchantId=1",
  "DEBUG operator circuit probe failed: open again merchantId=1 openForMs=1000 openings=2",
  "DEBUG operator circuit half-open: one call probes the operator merchantId=1",
  "DEBUG operator circuit probe failed: open again merchantId=1 openForMs=1000 openings=3",
  "DEBUG operator circuit half-open: one call probes the operator merchantId=1",
  "INFO operator circuit closed: its calls resume merchantId=1",
  "WARN operator circuit open: its calls fail fast until a probe succeeds merchantId=1 openForMs=1000 openings=4",
  "DEBUG operator circuit half-open: one call probes the operator merchantId=1",
  "DEBUG operator circuit probe failed: open again merchantId=1 openForMs=1000 openings=5"
]

/** The script's answers and the transitions logged meanwhile (every level). */
const run = (circuit: Layer.Layer<OperatorCircuit.OperatorCircuit>) => {
  const logged: Array<string> = []
  const logger = Logger.make((options) => {
    const annotations = options.fiber.getRef(References.CurrentLogAnnotations)
    const fields = Object.entries(annotations).map(([k, v]) => ` ${k}=${String(v)}`).join("")
    logged.push(`${options.logLevel.toUpperCase()} ${String(options.message)}${fields}`)
  })
  return script.pipe(
    // The breaker over a store logs from a fiber of its own: it has logged what happened once it had a turn.
    Effect.tap(() => Effect.yieldNow),
    Effect.provide(circuit),
    Effect.provide(Logger.layer([logger])),
    Effect.provideService(References.MinimumLogLevel, "All"),
    Effect.map((answers) => ({ answers, logged }))
  )
}

describe("OperatorCircuit", () => {
  it.effect("in process: opens after failures in a row, refuses for the open time, lets one probe through", () =>
    Effect.gen(function*() {
      const { answers, logged } = yield* run(OperatorCircuit.layerMemory(options))
      assert.deepStrictEqual(answers, expected)
      assert.deepStrictEqual(logged, loggedTransitions)
    }))

  it.effect("over a CircuitBreakerStore (Redis's path): the same answers to the same calls, the same lines logged", () =>
    Effect.gen(function*() {
      const { answers, logged } = yield* run(OperatorCircuit.layer(options).pipe(Layer.provide(CircuitBreaker.layerStoreMemory())))
      assert.deepStrictEqual(answers, expected)
      assert.deepStrictEqual(logged, loggedTransitions)
    }))

  it.effect("failures 0: no breaker, every call made", () =>
    Effect.gen(function*() {
      const circuit = yield* OperatorCircuit.OperatorCircuit
      const results: Array<string> = []
      for (let i = 0; i < 5; i++) results.push(seen(yield* Effect.exit(circuit.guard(a, timedOut))))
      assert.deepStrictEqual(results, Array(5).fill("TimedOut"))
    }).pipe(Effect.provide(OperatorCircuit.layerMemory({ failures: 0, openMs: 1000 }))))
})
