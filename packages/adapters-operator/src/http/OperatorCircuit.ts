import { Clock, Context, Duration, Effect, Exit, Layer, Metric, References, Stream } from "effect"
import { CircuitBreaker } from "effect/persistence"
import type { MerchantId } from "@gateway/domain/Merchant"
import { OperatorUnavailable } from "@gateway/domain/Operator"
import type { OperatorAnswer } from "./OperatorHttp.ts"

/** When a merchant's circuit opens and for how long (`OPERATOR_BREAKER_FAILURES`, `OPERATOR_BREAKER_OPEN_MS`). */
export interface CircuitOptions {
  /** Consecutive failed calls that open the circuit; 0 turns the breaker off. */
  readonly failures: number
  /** How long an open circuit refuses calls before one probe is let through. */
  readonly openMs: number
}

/** A call not made because the merchant's circuit is open (or another call is probing it). */
export interface Paused {
  readonly _tag: "Paused"
  readonly retryAfterMs: number
}

/** The domain's error for a call refused by the merchant's open circuit: whole seconds (at least 1) to wait. */
export const unavailableFor = (paused: Paused): OperatorUnavailable =>
  new OperatorUnavailable({ retryAfterSeconds: Math.max(1, Math.ceil(paused.retryAfterMs / 1000)) })

/** How long a caller turned away while another call probes waits before it tries again. */
const probingRetryMs = 1000

/**
 * One circuit breaker per merchant over every call to its operator
 * (Details, debit, queued webhooks): time-outs, network failures and 5xx
 * answers count, `failures` of them in a row open the circuit, and for
 * `openMs` every call of that merchant is refused at once with `Paused`.
 * Then one call probes (half-open): an answer that is not a failure closes
 * the circuit, a failure opens it again. A 4xx or a bad body is an answer,
 * not an outage; a refused address or unreadable keys say nothing of the
 * operator. The state lives in the `CircuitBreakerStore`: in the process, or
 * in Redis and so shared by every instance (`REDIS_URL`).
 */
export class OperatorCircuit extends Context.Service<OperatorCircuit, {
  guard<E extends Tagged>(
    merchantId: MerchantId,
    call: Effect.Effect<OperatorAnswer, E>
  ): Effect.Effect<OperatorAnswer, E | Paused>
}>()("@gateway/adapters-operator/http/OperatorCircuit") {}

type Tagged = { readonly _tag: string }

const isFailure = <E extends Tagged>(exit: Exit.Exit<OperatorAnswer, E>): boolean =>
  Exit.isSuccess(exit)
    ? exit.value.status >= 500
    : exit.cause.reasons.some((reason) =>
      reason._tag === "Fail" && (reason.error._tag === "TimedOut" || reason.error._tag === "Unreachable")
    )

/** What a call's end counts as: a failure (an outage), a success (an answer), or nothing (e.g. a refused address). */
type Outcome = "Success" | "Failure" | "Ignored"

const outcomeOf = <E extends Tagged>(exit: Exit.Exit<OperatorAnswer, E>): Outcome =>
  isFailure(exit) ? "Failure" : Exit.isSuccess(exit) ? "Success" : "Ignored"

/** {@link outcomeOf} as the store's breaker takes it. */
const classify = <E extends Tagged>(exit: Exit.Exit<OperatorAnswer, E>): CircuitBreaker.Outcome => {
  const outcome = outcomeOf(exit)
  return outcome === "Failure" ? CircuitBreaker.failure() : outcome === "Success" ? CircuitBreaker.success : CircuitBreaker.ignored
}

const isBreakerError = (error: unknown): error is CircuitBreaker.CircuitBreakerError =>
  error instanceof CircuitBreaker.CircuitBreakerError

/** A refusal to wait `retryAfterMs`, in whole milliseconds and at least 1. */
const paused = (retryAfterMs: number): Paused => ({ _tag: "Paused", retryAfterMs: Math.max(1, Math.ceil(retryAfterMs)) })

const transitions = Metric.counter("gateway_operator_circuit_transitions_total", {
  description: "Operators' circuit breakers changing state on this instance: open (failures in a row), reopen (a probe " +
    "failed), half_open (a probe is let through), closed (a probe succeeded)",
  incremental: true
})

/**
 * Logs and counts what this instance's breaker did. An outage is one WARN
 * when the circuit opens and one INFO when it closes; the probes between
 * (every `openMs` while the operator is down) are DEBUG.
 */
const report = (transition: CircuitBreaker.Transition) => {
  const to = transition.to === "Open"
    ? transition.from === "Closed" ? "open" : "reopen"
    : transition.to === "Closed"
    ? "closed"
    : "half_open"
  const merchantId = transition.key.replace(/^merchant:/, "")
  const log = to === "open"
    ? Effect.logWarning("operator circuit open: its calls fail fast until a probe succeeds")
    : to === "closed"
    ? Effect.logInfo("operator circuit closed: its calls resume")
    : to === "reopen"
    ? Effect.logDebug("operator circuit probe failed: open again")
    : Effect.logDebug("operator circuit half-open: one call probes the operator")
  return log.pipe(
    Effect.annotateLogs({
      merchantId,
      ...(transition.to === "Open"
        ? { openForMs: Duration.toMillis(transition.retryAfter), openings: transition.consecutiveOpenings }
        : {})
    }),
    Effect.andThen(Metric.update(Metric.withAttributes(transitions, { to }), 1))
  )
}

/** No breaker: every call is made (`OPERATOR_BREAKER_FAILURES=0`, and tests of the calls themselves). */
export const layerOff: Layer.Layer<OperatorCircuit> = Layer.succeed(
  OperatorCircuit,
  OperatorCircuit.of({ guard: (_merchantId, call) => call })
)

/** One merchant's circuit in this process: the fields of Effect's in-memory `CircuitBreakerStore` for a consecutive policy. */
interface Circuit {
  state: "Closed" | "Open" | "HalfOpen"
  /** Changes when the circuit opens, when a probe is let through and when it closes: a call admitted before counts for nothing after. */
  generation: number
  /** Failures in a row while closed. */
  streak: number
  openUntil: number
  /** Openings in a row, reported with each; back to 0 at the first call an open time after a close. */
  openings: number
  resetAt: number
  probing: boolean
  lastActivity: number
}

/**
 * The breaker with its state in this process (no `REDIS_URL`): the same
 * circuit as {@link layer} over `CircuitBreaker.layerStoreMemory()` — the same
 * states, time-outs, probe, idle expiry (an hour) and transitions logged and
 * counted — without what a store shared between instances needs on every
 * call (a scope, effects for admission and record, a hub for transitions).
 * Those were a tenth of a real round's CPU (bench/README.md, "The fourteenth
 * pass"). Admission is synchronous and the record a finalizer of the call,
 * both uninterruptible, so an interrupted probe always lets the next call
 * probe. Time is the fiber's `Clock`.
 */
export const makeMemory = (options: CircuitOptions, idleTimeToLiveMs = 3_600_000): OperatorCircuit["Service"] => {
  const circuits = new Map<string, Circuit>()
  let generations = 0
  let lastSweep = 0
  const expired = (circuit: Circuit, now: number) =>
    circuit.state === "Closed"
      ? now - circuit.lastActivity >= idleTimeToLiveMs
      : circuit.state === "Open"
      ? now - Math.max(circuit.lastActivity, circuit.openUntil) >= idleTimeToLiveMs
      : !circuit.probing && now - circuit.lastActivity >= idleTimeToLiveMs
  const lookup = (key: string, now: number) => {
    const circuit = circuits.get(key)
    return circuit !== undefined && !expired(circuit, now) ? circuit : undefined
  }
  const open = (key: string, circuit: Circuit, from: "Closed" | "HalfOpen", now: number): CircuitBreaker.Transition => {
    circuit.state = "Open"
    circuit.generation = generations++
    circuit.openUntil = now + options.openMs
    circuit.openings++
    circuit.probing = false
    circuit.streak = 0
    return { key, from, to: "Open", retryAfter: Duration.millis(options.openMs), consecutiveOpenings: circuit.openings }
  }

  /** Lets a call through (its generation, and the move to half-open it made) or says how long to wait. */
  const admit = (key: string, now: number): Paused | { readonly generation: number; readonly transition?: CircuitBreaker.Transition } => {
    if (now - lastSweep >= idleTimeToLiveMs) {
      lastSweep = now
      for (const [k, circuit] of circuits) if (expired(circuit, now)) circuits.delete(k)
    }
    let circuit = lookup(key, now)
    if (circuit === undefined) {
      circuit = { state: "Closed", generation: generations++, streak: 0, openUntil: 0, openings: 0, resetAt: 0, probing: false, lastActivity: now }
      circuits.set(key, circuit)
    }
    let transition: CircuitBreaker.Transition | undefined
    if (circuit.state === "Closed") {
      if (circuit.openings > 0 && now >= circuit.resetAt) circuit.openings = 0
    } else if (circuit.state === "Open") {
      if (now < circuit.openUntil) return paused(circuit.openUntil - now)
      circuit.state = "HalfOpen"
      transition = { key, from: "Open", to: "HalfOpen" }
    } else if (circuit.probing) {
      return paused(probingRetryMs)
    }
    circuit.lastActivity = now
    if (circuit.state === "HalfOpen") {
      circuit.probing = true
      circuit.generation = generations++
    }
    return transition === undefined ? { generation: circuit.generation } : { generation: circuit.generation, transition }
  }

  /** What a call's outcome changes: the transition it caused, if any. */
  const record = (key: string, generation: number, outcome: Outcome, now: number): CircuitBreaker.Transition | undefined => {
    const circuit = lookup(key, now)
    if (circuit === undefined || circuit.generation !== generation) return undefined
    circuit.lastActivity = now
    if (circuit.state === "HalfOpen") {
      if (outcome === "Ignored") {
        circuit.probing = false
        return undefined
      }
      if (outcome === "Failure") return open(key, circuit, "HalfOpen", now)
      circuit.state = "Closed"
      circuit.generation = generations++
      circuit.resetAt = now + options.openMs
      circuit.probing = false
      circuit.streak = 0
      return { key, from: "HalfOpen", to: "Closed" }
    }
    if (circuit.state !== "Closed" || outcome === "Ignored") return undefined
    circuit.streak = outcome === "Failure" ? circuit.streak + 1 : 0
    return circuit.streak >= options.failures ? open(key, circuit, "Closed", now) : undefined
  }

  const guard = <E extends Tagged>(merchantId: MerchantId, call: Effect.Effect<OperatorAnswer, E>) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.withFiber((fiber): Effect.Effect<OperatorAnswer, E | Paused> => {
        const clock = fiber.getRef(Clock.Clock)
        const key = `merchant:${merchantId}`
        const admitted = admit(key, clock.currentTimeMillisUnsafe())
        if ("_tag" in admitted) return Effect.fail(admitted)
        const run = Effect.onExit(restore(call), (exit) => {
          const transition = record(key, admitted.generation, outcomeOf(exit), clock.currentTimeMillisUnsafe())
          return transition === undefined ? Effect.void : report(transition)
        })
        return admitted.transition === undefined ? run : Effect.andThen(report(admitted.transition), run)
      })
    )
  return OperatorCircuit.of({ guard })
}

/** {@link makeMemory} as a layer (`OPERATOR_BREAKER_FAILURES=0`: no breaker). */
export const layerMemory = (options: CircuitOptions): Layer.Layer<OperatorCircuit> =>
  options.failures <= 0 ? layerOff : Layer.sync(OperatorCircuit, () => makeMemory(options))

/**
 * The breaker over the store it is given: `CircuitBreaker.layerStoreRedis(...)`
 * (every instance sees one circuit), or `layerStoreMemory()`, which
 * {@link layerMemory} does at a fraction of the cost.
 */
export const layer = (options: CircuitOptions): Layer.Layer<OperatorCircuit, never, CircuitBreaker.CircuitBreakerStore> =>
  options.failures <= 0 ? layerOff : Layer.effect(
    OperatorCircuit,
    Effect.gen(function*() {
      const breaker = yield* CircuitBreaker.make({
        tripPolicy: CircuitBreaker.consecutive(options.failures),
        openDuration: Duration.millis(options.openMs)
      })
      yield* breaker.transitions.pipe(Stream.runForEach(report), Effect.forkScoped({ startImmediately: true }))
      const guard = <E extends Tagged>(merchantId: MerchantId, call: Effect.Effect<OperatorAnswer, E>) =>
        call.pipe(
          breaker.execute({ key: `merchant:${merchantId}`, classify: (exit: Exit.Exit<OperatorAnswer, E>) => classify(exit) }),
          // A store that fails (Redis down) lets calls through unrecorded; the Redis client logs the outage once per
          // reconnection, not the breaker once per call.
          Effect.provideService(References.UnhandledLogLevel, "Debug"),
          Effect.catchIf(isBreakerError, (error) =>
            error.reason._tag === "CircuitOpen"
              ? Effect.fail(paused(Duration.toMillis(error.reason.retryAfter)))
              : error.reason._tag === "CircuitHalfOpen"
              ? Effect.fail(paused(probingRetryMs))
              : Effect.die(error))
        )
      return OperatorCircuit.of({ guard })
    })
  )
