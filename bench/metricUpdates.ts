/**
 * What the request metric costs each request: 100,000 updates of
 * `gateway_http_request_duration_seconds` (as the access log makes them,
 * over four routes and two statuses) against as many `Effect.void`, in one
 * fiber, three rounds after a warm-up.
 *
 *   node bench/metricUpdates.ts
 */
import { Effect } from "effect"
import { recordRequestUnsafe } from "@gateway/adapters-http/Metrics"

const routes = [
  "/api/v1.1/operator-api/games",
  "/api/v1.1/operator-api/games/generate-launch-url",
  "/api/v1.1/game-api/rounds",
  "/health"
]
const updates = 100_000

const microsecondsEach = (body: (i: number) => Effect.Effect<void>): number => {
  const loop = Effect.gen(function*() {
    for (let i = 0; i < updates; i++) yield* body(i)
  })
  Effect.runSync(loop)
  const started = performance.now()
  Effect.runSync(loop)
  return (performance.now() - started) * 1000 / updates
}

for (let round = 1; round <= 3; round++) {
  const plain = microsecondsEach(() => Effect.void)
  const recorded = microsecondsEach((i) =>
    Effect.withFiber((fiber) => {
      recordRequestUnsafe("GET", routes[i & 3] ?? "/health", i % 7 === 0 ? 404 : 200, 0.0012, fiber.context)
      return Effect.void
    })
  )
  console.log(
    `round ${round}: ${recorded.toFixed(3)} µs with the update, ${plain.toFixed(3)} µs without: ` +
      `${(recorded - plain).toFixed(3)} µs per request`
  )
}
