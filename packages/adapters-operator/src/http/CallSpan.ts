import { Effect, Tracer } from "effect"

/**
 * Whether spans go anywhere: false under Effect's native tracer, which has no
 * exporter (the app installs an OTLP tracer only when an endpoint is set).
 * Read once, when a layer is built, so that without tracing a call to an
 * operator costs exactly what it did: no span, no `traceparent`.
 */
export const exported: Effect.Effect<boolean> = Effect.map(Effect.tracer, (tracer) => tracer !== Tracer.nativeTracer)

/** The W3C `traceparent` naming `span` as the caller: `00-<32 hex trace id>-<16 hex span id>-<flags>`. */
export const traceparent = (span: Tracer.Span): string =>
  `00-${span.traceId.padStart(32, "0")}-${span.spanId}-${span.sampled ? "01" : "00"}`

/**
 * The attributes of a POST to an operator's `url`: its host and port, never
 * its path or query, where an operator may have put a token of its own.
 */
export const attributes = (url: string): Record<string, unknown> => {
  const parsed = URL.parse(url)
  if (parsed === null) return { "http.request.method": "POST" }
  const port = parsed.port === "" ? (parsed.protocol === "https:" ? 443 : 80) : Number(parsed.port)
  return { "http.request.method": "POST", "server.address": parsed.hostname, "server.port": port }
}
