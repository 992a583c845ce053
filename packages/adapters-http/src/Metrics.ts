import { Context, Effect, Layer, Metric, Option, Redacted } from "effect"
import { series } from "@gateway/domain/MetricSeries"
import { createHash, timingSafeEqual } from "node:crypto"

/**
 * The HTTP side's metrics, on Effect's `Metric` (the default registry, which
 * `/metrics` renders with `PrometheusMetrics`). Every label is bounded: a
 * route is the pattern the request matched (`(no route)` for any other
 * path), never the path itself; an outcome is `ok` or a problem code.
 */

/** Seconds, from a millisecond to ten seconds. */
const requestBoundaries = Metric.boundariesFromIterable([
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
])

const requestSeries = series((attributes) =>
  Metric.histogram("gateway_http_request_duration_seconds", {
    description: "HTTP requests by method, route pattern and status, with their duration in seconds (_count: requests)",
    boundaries: requestBoundaries,
    attributes
  })
)

const rateLimitedSeries = series((attributes) =>
  Metric.counter("gateway_rate_limited_total", {
    description: "Requests refused with 429 RATE_LIMITED (a credential's or a client address's budget), by route pattern",
    incremental: true,
    attributes
  })
)

/**
 * Counts an answered request and its duration, and a 429 among the
 * rate-limited; the access log calls it once per request, at once, on the
 * request's fiber's `context` (its metric registry). (Counted here rather
 * than in the limiter: a kept games page whose key is refused goes on to
 * the router, which asks the limiter again.)
 */
export const recordRequestUnsafe = (
  method: string,
  route: string,
  status: number,
  seconds: number,
  context: Context.Context<never>
): void => {
  requestSeries(`${status} ${method} ${route}`, () => ({ method, route, status: String(status) })).updateUnsafe(seconds, context)
  if (status === 429) rateLimitedSeries(route, () => ({ route })).updateUnsafe(1, context)
}

const launchSeries = series((attributes) =>
  Metric.counter("gateway_launches_total", {
    description: "Launch URLs asked for by authenticated operators, by outcome: ok or the problem code",
    incremental: true,
    attributes
  })
)

/** Counts the outcome of the launch effect: `ok`, or the code of the Problem it fails with. */
export const countLaunch = <A, E extends { readonly code: string }, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  effect.pipe(
    Effect.tap(() => Metric.update(launchSeries("ok", () => ({ outcome: "ok" })), 1)),
    Effect.tapError((problem) => Metric.update(launchSeries(problem.code, () => ({ outcome: problem.code })), 1))
  )

/**
 * The bearer token `/metrics` asks for (`METRICS_TOKEN`); none: `/metrics`
 * is open to anyone who reaches the port.
 */
export const MetricsToken = Context.Reference<Option.Option<Redacted.Redacted<string>>>(
  "@gateway/adapters-http/Metrics/MetricsToken",
  { defaultValue: () => Option.none() }
)

/** {@link MetricsToken}, with a warning at start when there is none. */
export const layerToken = (token: Option.Option<Redacted.Redacted<string>>): Layer.Layer<never> =>
  Layer.effect(
    MetricsToken,
    Effect.as(
      Option.isNone(token)
        ? Effect.logWarning("METRICS_TOKEN is not set: /metrics is open to anyone who reaches the port")
        : Effect.void,
      token
    )
  )

const sha256 = (text: string) => createHash("sha256").update(text).digest()
const bearerPrefix = /^bearer +/i

/**
 * Whether an `Authorization` header carries `Bearer <token>`; digests of
 * both are compared in constant time, so the answer's timing tells nothing
 * of the token, not even its length.
 */
export const bearerMatches = (token: Redacted.Redacted<string>) => {
  const expected = sha256(Redacted.value(token))
  return (authorization: string | undefined): boolean =>
    authorization !== undefined && bearerPrefix.test(authorization) &&
    timingSafeEqual(sha256(authorization.replace(bearerPrefix, "").trim()), expected)
}
