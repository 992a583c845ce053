/**
 * The gateway's HTTP adapter: the `HttpApi` contract of `@gateway/client`
 * re-exported, the middleware that guards it, handlers written against the
 * domain ports, and the game page.
 */
export { Api } from "@gateway/client/api/Api"
export * as Problem from "@gateway/client/api/Problem"
export * as Security from "@gateway/client/api/Security"
export * as Drain from "./Drain.ts"
export * as Metrics from "./Metrics.ts"
export * as RuntimeMetrics from "./RuntimeMetrics.ts"
export * as AdminAuth from "./middleware/AdminAuth.ts"
export * as Backoffice from "./handlers/Backoffice.ts"
export * as OperatorAuth from "./middleware/OperatorAuth.ts"
export * as RateLimiter from "./middleware/RateLimiter.ts"
export * as SharedRateLimiter from "./middleware/SharedRateLimiter.ts"
export * as RequestLimits from "./middleware/RequestLimits.ts"
export * as RouteTable from "./middleware/RouteTable.ts"
export { HttpLive, Routes } from "./Routes.ts"
export * as CollectorClient from "./tracing/CollectorClient.ts"
export * as RequestSpans from "./tracing/RequestSpans.ts"
