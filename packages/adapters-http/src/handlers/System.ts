import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { Status } from "../api/System.ts"
import * as Problem from "../Problem.ts"
import { Readiness } from "../Readiness.ts"

const ok = new Status({ status: "ok" })

/** Liveness and readiness. A check that fails, dies or takes longer than 2 s counts as not ready. */
export const SystemLive = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fn(function*(handlers) {
    const readiness = yield* Readiness
    return handlers.handleAll({
      health: () => Effect.succeed(ok),
      ready: () =>
        readiness.check.pipe(
          Effect.timeoutOrElse({ duration: "2 seconds", orElse: () => Effect.succeed(false) }),
          Effect.catchCause(() => Effect.succeed(false)),
          Effect.flatMap((ready) =>
            ready ? Effect.succeed(ok) : Effect.fail(Problem.make("NOT_READY", "the database does not answer"))
          )
        )
    })
  })
)
