import { Context, type Fiber, Tracer } from "effect"

/**
 * Names the route of a request answered before routing (a kept games page,
 * a fast launch) on its request span, as the router does for the requests
 * it routes — only when traces are exported.
 */
export const tagRoute = (fiber: Fiber.Fiber<unknown, unknown>, route: string): void => {
  if (fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer) return
  const span = Context.getOrUndefined(fiber.context, Tracer.ParentSpan)
  if (span !== undefined && span._tag === "Span" && span.sampled) span.attribute("http.route", route)
}
