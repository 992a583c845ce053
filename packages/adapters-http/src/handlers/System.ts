import { Effect, Fiber } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { LaunchKeyStore, Readiness } from "@gateway/domain"
import { Api } from "../api/Api.ts"
import * as Problem from "../api/Problem.ts"
import { Jwks, jwksMaxAgeSeconds, RotatedKey, Status } from "../api/System.ts"

const ok = new Status({ status: "ok" })
const jwksCache = { "cache-control": `public, max-age=${jwksMaxAgeSeconds}` as const }

/**
 * Liveness, readiness and the launch-token keys. A readiness check that
 * fails, dies or takes longer than 2 s counts as not ready. The answer does
 * not wait for a timed-out check to stop: interrupting a query to a database
 * that no longer answers (frozen, or its host gone) waits for the cancel
 * request, seconds more, so the check is interrupted in the background.
 */
export const SystemLive = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fn(function*(handlers) {
    const readiness = yield* Readiness
    const launchKeys = yield* LaunchKeyStore
    return handlers.handleAll({
      health: () => Effect.succeed(ok),
      ready: () =>
        Effect.forkDetach(readiness.check).pipe(
          Effect.flatMap((check) =>
            Fiber.join(check).pipe(
              Effect.timeoutOrElse({ duration: "2 seconds", orElse: () => Effect.succeed(false) }),
              Effect.ensuring(Effect.forkDetach(Fiber.interrupt(check)))
            )
          ),
          Effect.catchCause(() => Effect.succeed(false)),
          Effect.flatMap((ready) =>
            ready ? Effect.succeed(ok) : Effect.fail(Problem.make("NOT_READY", "the database does not answer"))
          )
        ),
      jwks: () =>
        launchKeys.publicKeys.pipe(
          Effect.map((keys) => HttpApiSchema.withHeaders({ body: new Jwks({ keys }), headers: jwksCache }))
        ),
      rotateLaunchKey: () => launchKeys.rotate.pipe(Effect.map(({ kid }) => new RotatedKey({ kid })))
    })
  })
)
