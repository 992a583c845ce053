import { Clock, Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { randomUUID } from "node:crypto"
import * as Metrics from "../Metrics.ts"
import type { RouteTable } from "./RouteTable.ts"

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
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const requestId = requestIdOf(request)
    const path = request.url.split("?")[0] ?? "/"
    const route = routes.route(request.method, path) ?? "(no route)"
    const log = probes.has(route) ? Effect.logDebug : Effect.logInfo
    return Effect.flatMap(Clock.currentTimeNanos, (started) =>
      httpEffect.pipe(
        Effect.tap((response) =>
          Effect.flatMap(Clock.currentTimeNanos, (ended) => {
            const durationMs = Number(ended - started) / 1e6
            return Effect.andThen(
              Metrics.recordRequest(request.method, route, response.status, durationMs / 1000),
              log("request").pipe(Effect.annotateLogs({
                method: request.method,
                route,
                status: response.status,
                durationMs,
                requestId
              }))
            )
          })
        ),
        Effect.map(HttpServerResponse.setHeader("x-request-id", requestId)),
        Effect.annotateLogs("requestId", requestId)
      ))
  })
