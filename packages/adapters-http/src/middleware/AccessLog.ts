import { Context, Effect, LogLevel, References } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { randomUUID } from "node:crypto"
import * as Metrics from "../Metrics.ts"
import { pathOf, type RouteTable } from "./RouteTable.ts"

const acceptedId = /^[A-Za-z0-9._:-]{1,128}$/

/** The request's `x-request-id` when it is a plain token of at most 128 characters, else a fresh UUID. */
export const requestIdOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const given = request.headers["x-request-id"]
  return given !== undefined && acceptedId.test(given) ? given : randomUUID()
}

/** The load balancer's probes: their lines are at DEBUG, so that a probe every second does not flood the log. */
const probes: ReadonlySet<string> = new Set(["/health", "/ready"])

/**
 * One log line per request — `request` with its method, route pattern (never
 * the path's values, the query string or any header), status, duration in
 * milliseconds and request id — and the request id echoed in
 * `x-request-id`, at INFO (DEBUG for `/health` and `/ready`, which load
 * balancers and orchestrators ask every few seconds). Every other log line written while the request runs
 * carries the same `requestId`. With the JSON logger (`LOG_FORMAT=json`) each
 * is one line of JSON. The same method, route and status, with the
 * duration, count the request in `gateway_http_request_duration_seconds`
 * (this middleware is outermost: kept games pages are counted too).
 */
export const logRequests = (routes: RouteTable) =>
<E, R>(
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiber((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
    const requestId = requestIdOf(request)
    const started = performance.now()
    return httpEffect.pipe(
      Effect.flatMap((answer) => {
        const durationMs = performance.now() - started
        const method = request.method
        const route = routes.route(method, pathOf(request.url)) ?? "(no route)"
        Metrics.recordRequestUnsafe(method, route, answer.status, durationMs / 1000, fiber.context)
        const response = HttpServerResponse.setHeader(answer, "x-request-id", requestId)
        // The line is made only when it is written: below LOG_LEVEL it would cost every request for nothing.
        const level = probes.has(route) ? "Debug" : "Info"
        if (!LogLevel.isGreaterThanOrEqualTo(level, fiber.getRef(References.MinimumLogLevel))) return Effect.succeed(response)
        return Effect.as(
          Effect.logWithLevel(level)("request").pipe(
            Effect.annotateLogs({ method, route, status: answer.status, durationMs, requestId })
          ),
          response
        )
      }),
      Effect.annotateLogs("requestId", requestId)
    )
  })
