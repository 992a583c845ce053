import { Cause, Clock, Context, Effect } from "effect"
import { HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import * as SqlError from "effect/sql/SqlError"
import { Validation } from "@gateway/domain"
import * as Problem from "@gateway/client/api/Problem"
import { pathOf, type RouteTable } from "./RouteTable.ts"

const decodable = (path: string) => {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

const notFound = (request: HttpServerRequest.HttpServerRequest, routes: RouteTable, paramTooLong: boolean) => {
  const path = pathOf(request.url)
  // The router cannot read a path that is not percent-encoded UTF-8 (`%zz`, `%FF`), nor a path parameter over
  // its length limit: that is bad input (400 as for any parameter), not a wrong method — it used to be a 405
  // whose `allow` listed the very method refused — nor an unknown route.
  if (!decodable(path)) return Problem.toResponse(Problem.make("VALIDATION_FAILED", "path: not valid percent-encoded UTF-8"))
  if (paramTooLong) return Problem.toResponse(Problem.make("VALIDATION_FAILED", "path: a path parameter is too long"))
  const methods = routes.allowed(path)
  if (methods.length === 0 || methods.includes(request.method)) {
    return Problem.toResponse(Problem.make("ROUTE_NOT_FOUND", `no route ${request.method} ${path.slice(0, 200)}`))
  }
  return Problem.toResponse(
    Problem.make("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; allowed: ${methods.join(", ")}`)
  ).pipe(HttpServerResponse.setHeader("allow", methods.join(", ")))
}

/** A body over the limit, found while it streamed: the rest is never read, the connection is closed after this. */
const payloadTooLarge = Problem.toResponse(Problem.make("PAYLOAD_TOO_LARGE", "the request body is too large")).pipe(
  HttpServerResponse.setHeader("connection", "close")
)

const clientSchemaErrors = new Set(["Params", "Headers", "Query", "Payload"])
const locations: Partial<Record<string, string>> = { Params: "path", Headers: "headers", Query: "query", Payload: "body" }

/** The Problem of a failure or defect that a client can cause; `undefined` for real defects. */
const clientProblem = (error: unknown, request: HttpServerRequest.HttpServerRequest, routes: RouteTable) => {
  if (error instanceof Problem.Problem) return Problem.toResponse(error)
  if (HttpApiError.HttpApiSchemaError.is(error) && clientSchemaErrors.has(error.kind)) {
    const failed = Validation.fromIssue(error.cause.issue)
    const where = failed.field === "" ? `${locations[error.kind] ?? "request"}: ` : ""
    return Problem.toResponse(Problem.make("VALIDATION_FAILED", `${where}${failed.message}`))
  }
  if (HttpApiError.HttpApiPayloadTooLarge.is(error)) return payloadTooLarge
  if (error instanceof HttpServerError.HttpServerError) {
    if (error.reason._tag === "RouteNotFound") return notFound(request, routes, error.reason.description !== undefined)
    if (error.reason._tag === "RequestParseError") {
      return error.reason.reason === "BodyTooLarge"
        ? payloadTooLarge
        : Problem.toResponse(Problem.make("VALIDATION_FAILED", "the request body could not be read"))
    }
  }
  return undefined
}

const codeOfStatus: Partial<Record<number, Problem.ProblemCode>> = {
  400: "VALIDATION_FAILED",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "ROUTE_NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE"
}

/** An error response that is not problem+json yet (e.g. the router's 415), rewritten into one. */
const ensureProblem = (response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  if (response.status < 400 || ("contentType" in body && body.contentType === Problem.contentType)) return response
  const code = codeOfStatus[response.status] ?? "INTERNAL_ERROR"
  const detail = code === "UNSUPPORTED_MEDIA_TYPE"
    ? "content-type must be application/json"
    : code === "INTERNAL_ERROR"
    ? "internal error"
    : Problem.titles[Problem.codes[code]]
  return Problem.toResponse(Problem.make(code, detail))
}

/** Every 429 and 503 tells the client when to try again: `retry-after`, its own or {@link Problem.defaultRetryAfterSeconds}. */
const ensureRetryAfter = (response: HttpServerResponse.HttpServerResponse) =>
  (response.status === 429 || response.status === 503) && response.headers["retry-after"] === undefined
    ? HttpServerResponse.setHeader(response, "retry-after", String(Problem.defaultRetryAfterSeconds))
    : response

const internalError = Problem.toResponse(Problem.make("INTERNAL_ERROR", "internal error"))

/** The database could not be reached (refused, dropped, not answering): the request may simply be tried again. */
const databaseAway = (error: unknown): error is SqlError.SqlError =>
  SqlError.isSqlError(error) && error.reason._tag === "ConnectionError"
const serviceUnavailable = Problem.toResponse(
  Problem.make("SERVICE_UNAVAILABLE", "the gateway cannot reach its database")
).pipe(HttpServerResponse.setHeader("retry-after", "1"))
/** While the database is away every request fails alike: one warning a second says so, not one error per request. */
let lastDatabaseWarning = 0
const warnDatabaseAway = (error: SqlError.SqlError) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => {
    if (now - lastDatabaseWarning < 1_000) return Effect.void
    lastDatabaseWarning = now
    return Effect.logWarning(`requests answered 503: the database is unreachable (${error.reason.message ?? error.message})`)
  })

const recover = <E>(
  cause: Cause.Cause<E>,
  request: HttpServerRequest.HttpServerRequest,
  routes: RouteTable
): Effect.Effect<HttpServerResponse.HttpServerResponse, E> => {
  if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
  for (const reason of cause.reasons) {
    const error = Cause.isFailReason(reason) ? reason.error : Cause.isDieReason(reason) ? reason.defect : undefined
    const response = clientProblem(error, request, routes)
    if (response !== undefined) return Effect.succeed(response)
    if (databaseAway(error)) return Effect.as(warnDatabaseAway(error), serviceUnavailable)
  }
  return Effect.as(Effect.logError("unexpected failure answered 500", cause), internalError)
}

/**
 * Makes every error answer problem+json: decode failures (400 naming the
 * field), unknown routes (404) and wrong methods (405 with `allow`), an
 * unreachable database (503 SERVICE_UNAVAILABLE with `retry-after`; every 429 and 503 has one), and
 * defects (500 with a generic detail; the cause is logged, never sent).
 */
export const answerProblems = (routes: RouteTable) =>
<E, R>(
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiber((fiber) =>
    httpEffect.pipe(
      Effect.catchCause((cause) => recover(cause, Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest), routes)),
      Effect.map((response) => ensureRetryAfter(ensureProblem(response)))
    )
  )
