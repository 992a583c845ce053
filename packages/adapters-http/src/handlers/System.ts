import { Effect, Option } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { PrometheusMetrics } from "effect/observability"
import { AuditLog, Deadline, LaunchKeyStore, MetricsRefresh, Readiness } from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Problem from "@gateway/client/api/Problem"
import { Drain } from "../Drain.ts"
import { Jwks, jwksMaxAgeSeconds, RotatedKey, Status } from "@gateway/client/api/System"
import * as Metrics from "../Metrics.ts"
import { RuntimeMetrics } from "../RuntimeMetrics.ts"
import { guardFailures, RateLimiter } from "../middleware/RateLimiter.ts"
import * as Actor from "./Actor.ts"

const ok = new Status({ status: "ok" })
const jwksCache = { "cache-control": `public, max-age=${jwksMaxAgeSeconds}` as const }

/**
 * Liveness, readiness and the launch-token keys. Once the instance is
 * shutting down ({@link Drain}) it is not ready. A readiness check that
 * fails, dies or takes longer than 2 s counts as not ready. The answer does
 * not wait for a timed-out check to stop: interrupting a query to a database
 * that no longer answers (frozen, or its host gone) waits for the cancel
 * request, seconds more, so the check is interrupted in the background
 * (`Deadline.answerWithin`). Metrics are rendered from Effect's metric
 * registry by `PrometheusMetrics` once the gauges read from storage are
 * refreshed (a refresh answers within 2 s, with the last values if need
 * be: the `MetricsRefresh` port's promise), and the runtime's
 * (`RuntimeMetrics`); with a metrics token, a
 * wrong or missing one is a failed authentication of the client's address
 * (without one, nothing is charged: an open endpoint is never refused).
 */
export const SystemLive = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fn(function*(handlers) {
    const readiness = yield* Readiness
    const drain = yield* Drain
    const launchKeys = yield* LaunchKeyStore
    const metricsToken = Option.map(yield* Metrics.MetricsToken, Metrics.bearerMatches)
    const gauges = yield* MetricsRefresh
    const guarded = guardFailures(yield* RateLimiter)
    const runtime = yield* RuntimeMetrics
    const audit = yield* AuditLog
    const actor = yield* Actor.make
    const exposition = gauges.refresh.pipe(Effect.andThen(runtime.refresh), Effect.andThen(PrometheusMetrics.format()))
    return handlers.handleAll({
      health: () => Effect.succeed(ok),
      ready: () =>
        Effect.flatMap(drain.draining, (draining) =>
          draining
            ? Effect.fail(Problem.make("NOT_READY", "the instance is shutting down"))
            : readiness.check.pipe(
              Deadline.answerWithin("2 seconds", () => Effect.succeed(false)),
              Effect.catchCause(() => Effect.succeed(false)),
              Effect.flatMap((ready) =>
                ready ? Effect.succeed(ok) : Effect.fail(Problem.make("NOT_READY", "the database does not answer"))
              )
            )
        ),
      metrics: ({ request }) =>
        Option.isNone(metricsToken)
          ? exposition
          : guarded(
            metricsToken.value(request.headers["authorization"])
              ? exposition
              : Effect.fail(Problem.make("UNAUTHORIZED", "missing or wrong metrics token (Authorization: Bearer <METRICS_TOKEN>)"))
          ),
      jwks: () =>
        launchKeys.publicKeys.pipe(
          Effect.map((keys) => HttpApiSchema.withHeaders({ body: new Jwks({ keys }), headers: jwksCache }))
        ),
      // Audited with no merchant, beside the catalogue's changes: who made which key current instead of which. A
      // fixed key (LAUNCH_SIGNING_KEY) does not rotate: the same kid back records nothing.
      rotateLaunchKey: () =>
        Effect.gen(function*() {
          const who = yield* actor
          const before = (yield* launchKeys.current).kid
          const { kid } = yield* audit.audited(launchKeys.rotate, (rotated) =>
            rotated.kid === before ? undefined : {
              merchantId: null,
              actor: who,
              action: "launch_key.rotate",
              before: { kid: before },
              after: { kid: rotated.kid }
            })
          return new RotatedKey({ kid })
        })
    })
  })
)
