import { Cause, Exit, Layer, Option, Tracer } from "effect"
import { HttpMiddleware, type HttpServerRequest } from "effect/http"
import { routes } from "../Routes.ts"

/** A URL or path without its query string or fragment, where launch and session tokens travel. */
const withoutQuery = (url: string): string => {
  const cut = url.search(/[?#]/)
  return cut === -1 ? url : url.slice(0, cut)
}

/** A request's span is `<method> <route>` (`GET /api/v1.1/operator-api/games`): never a path's values or a query. */
export const spanName = (request: HttpServerRequest.HttpServerRequest): string => {
  const route = routes.route(request.method, withoutQuery(request.url))
  return route === undefined ? request.method : `${request.method} ${route}`
}

/** Names effect's server spans with {@link spanName}. */
export const layerSpanNames: Layer.Layer<never> = Layer.succeed(HttpMiddleware.SpanNameGenerator)(spanName)

const word = /^\w{1,64}$/

/** The name of what `cause` failed with (a tag or an error class, bounded), never its message. */
const failureName = (cause: Cause.Cause<unknown>): string => {
  const reason = cause.reasons.find((r) => r._tag !== "Interrupt")
  const value: unknown = reason?._tag === "Fail" ? reason.error : reason?._tag === "Die" ? reason.defect : undefined
  const name = typeof value === "object" && value !== null
    ? ("_tag" in value && typeof value._tag === "string" ? value._tag : "name" in value ? value.name : undefined)
    : undefined
  return typeof name === "string" && word.test(name) ? name : "Error"
}

/**
 * The exit a span is exported with: a failure becomes a generic error named
 * after its tag, without its message or stack — a 5xx's cause (a pg error
 * quoting values, an operator's answer) stays in the gateway's log.
 */
const exportedExit = (exit: Exit.Exit<unknown, unknown>): Exit.Exit<unknown, unknown> => {
  if (Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause)) return exit
  const error = new Error("failed (the cause is in the gateway's log, never in traces)")
  error.name = failureName(exit.cause)
  error.stack = `${error.name}: ${error.message}`
  return Exit.fail(error)
}

/**
 * `span` with what could carry a secret left out: effect's server span
 * records the URL with its query (`url.full`, `url.query`), where a launch
 * URL carries its token, and headers on request (`sv-api-key`,
 * `authorization`); a failed span ends with its cause. The query and every
 * header are dropped, `url.full` keeps scheme, host and path, and a failure
 * is exported as {@link exportedExit}.
 */
const redacted = (span: Tracer.Span): Tracer.Span => {
  const attribute = span.attribute.bind(span)
  const end = span.end.bind(span)
  span.attribute = (key, value) => {
    if (key === "url.query" || key.startsWith("http.request.header.") || key.startsWith("http.response.header.")) return
    attribute(key, key === "url.full" && typeof value === "string" ? withoutQuery(value) : value)
  }
  span.end = (endTime, exit) => end(endTime, exportedExit(exit))
  return span
}

/**
 * Whether a span's trace is exported: a trace starts at a request (a server
 * span) or at a queued message's delivery (a consumer span). Roots of any
 * other kind are background polling — the outbox claim every second, the
 * change feed, housekeeping — whose traces would outnumber the requests' and
 * say nothing; they and their children are not sampled. A caller's
 * `traceparent` that says "not sampled" is honoured (docs/decisions.md).
 */
const sampled = (options: Parameters<Tracer.Tracer["span"]>[0]): boolean =>
  options.sampled && (Option.isSome(options.parent) || options.kind === "server" || options.kind === "consumer")

/**
 * `tracer` (an exporting one, e.g. effect's `OtlpTracer`) as the gateway
 * exports spans: only traces that start at a request or a delivery, with no
 * query string, header or failure message in them.
 */
export const exported = (tracer: Tracer.Tracer): Tracer.Tracer =>
  Tracer.make({
    span: (options) => redacted(tracer.span({ ...options, sampled: sampled(options) })),
    context: tracer.context
  })
