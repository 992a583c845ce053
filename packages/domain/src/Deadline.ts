import { Effect, Fiber } from "effect"
import type { Duration } from "effect"

/**
 * `effect`'s result if it comes within `duration`, else `orElse`'s — without
 * waiting for `effect` to stop. `Effect.timeout` waits for the timed-out
 * effect's interruption, and interrupting a query to a database that no
 * longer answers (frozen, or its host gone) waits for the cancel request,
 * seconds more. Here `effect` runs in a fiber of its own, interrupted in the
 * background once the answer is given: a readiness check or a metrics scrape
 * answers on time during an outage.
 */
export const answerWithin = <B, E2 = never, R2 = never>(
  duration: Duration.Input,
  orElse: () => Effect.Effect<B, E2, R2>
) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A | B, E | E2, R | R2> =>
  Effect.flatMap(Effect.forkDetach(effect), (fiber) =>
    Fiber.join(fiber).pipe(
      Effect.timeoutOrElse({ duration, orElse }),
      Effect.ensuring(Effect.forkDetach(Fiber.interrupt(fiber)))
    ))
