import { ByteSize, Context, Effect } from "effect"
import { HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as Problem from "@gateway/client/api/Problem"

/** The body limit when the app sets none (`MAX_BODY_BYTES`, CONTRACT §7). */
export const defaultMaxBodyBytes = 65_536

/** The body limit as a layer value: provide it to the HTTP app (`Layer.succeed(HttpIncomingMessage.MaxBodySize, …)`). */
export const maxBodySize = (bytes: number): ByteSize.ByteSize => ByteSize.bytes(BigInt(bytes))

const tooLarge = (limit: number) =>
  Problem.toResponse(Problem.make("PAYLOAD_TOO_LARGE", `the request body is larger than ${limit} bytes`)).pipe(
    // The rest of the body is never read: the connection is closed after this answer.
    HttpServerResponse.setHeader("connection", "close")
  )

/**
 * Every request body is bounded: a `content-length` above the limit is
 * answered 413 at once, without reading a byte of it, and a body without one
 * (chunked) is read only up to the limit, then refused with 413 while it
 * streams — never buffered whole. The limit is the app's
 * `HttpIncomingMessage.MaxBodySize`, else {@link defaultMaxBodyBytes}.
 */
export const limitBodies = <E, R>(
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiber((fiber) => {
    const configured = fiber.getRef(HttpIncomingMessage.MaxBodySize)
    const limit = configured === undefined ? defaultMaxBodyBytes : Number(configured)
    const length = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest).headers["content-length"]
    if (length !== undefined && (!/^\d{1,15}$/.test(length) || Number(length) > limit)) return Effect.succeed(tooLarge(limit))
    return configured === undefined ? Effect.provideService(httpEffect, HttpIncomingMessage.MaxBodySize, maxBodySize(limit)) : httpEffect
  })
