/**
 * What the operators' circuit breaker costs a call, in this process (`node bench/breaker-micro.ts`): 200,000
 * guarded calls that succeed at once, spread over 100 merchants, three times each way — no breaker
 * (`layerOff`), Effect's `CircuitBreaker` over its in-memory store (what `REDIS_URL` uses, over Redis), and the
 * in-process breaker a gateway without Redis uses (`layerMemory`). Every operator call pays it: a launch's
 * Details call, a round's debit and credit, each delivery.
 */
import { Effect, Layer } from "effect"
import { CircuitBreaker } from "effect/persistence"
import { MerchantId } from "@gateway/domain/Merchant"
import * as OperatorCircuit from "@gateway/adapters-operator/http/OperatorCircuit"

const answer = Effect.succeed({ status: 200, headers: {}, body: "{}" })
const layers = {
  off: OperatorCircuit.layerOff,
  store: OperatorCircuit.layer({ failures: 5, openMs: 1000 }).pipe(Layer.provide(CircuitBreaker.layerStoreMemory())),
  memory: OperatorCircuit.layerMemory({ failures: 5, openMs: 1000 })
}
const n = 200_000
for (let round = 0; round < 3; round++) {
  for (const [name, layer] of Object.entries(layers)) {
    const us = await Effect.runPromise(Effect.gen(function*() {
      const circuit = yield* OperatorCircuit.OperatorCircuit
      const started = performance.now()
      for (let i = 0; i < n; i++) yield* circuit.guard(MerchantId.make(1 + (i % 100)), answer)
      return ((performance.now() - started) * 1000) / n
    }).pipe(Effect.scoped, Effect.provide(layer)))
    console.log(name, us.toFixed(2), "µs a call")
  }
}
