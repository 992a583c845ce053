import { Context, Effect, Layer } from "effect"
import { EventEmitter } from "node:events"
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import type { LookupFunction } from "node:net"
import { Agent, type Dispatcher, request } from "undici"
import { isNonPublicAddress, literalAddress } from "./AddressGuard.ts"

/** Why a call to an operator did not produce an answer. */
export type CallFailure =
  | { readonly _tag: "Refused"; readonly detail: string }
  | { readonly _tag: "Unreachable"; readonly detail: string }
  | { readonly _tag: "TimedOut" }

/** An operator's raw answer. */
export interface OperatorAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly body: string
}

const MAX_BODY = 64 * 1024

class NonPublicAddress extends Error {
  readonly code = "E_OPERATOR_NON_PUBLIC_ADDRESS"
}

const timedOut: CallFailure = { _tag: "TimedOut" }

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: Array<LookupAddress>) => {
    if (error) return callback(error, "", 4)
    const first = addresses[0]
    if (first === undefined) return callback(new Error(`no address for ${hostname}`), "", 4)
    if (addresses.some((a) => isNonPublicAddress(a.address))) {
      return callback(new NonPublicAddress(`${hostname} resolves to a non-public address`), "", 4)
    }
    return options.all ? callback(null, addresses) : callback(null, first.address, first.family)
  })
}

const causes = (error: unknown): Array<unknown> => {
  const chain: Array<unknown> = []
  for (let e: unknown = error; e !== undefined && e !== null && chain.length < 8; ) {
    chain.push(e)
    e = typeof e === "object" && "cause" in e ? e.cause : undefined
  }
  return chain
}

const readBody = async (
  body: Dispatcher.ResponseData["body"],
  length: string | ReadonlyArray<string> | undefined
): Promise<string | undefined> => {
  // A declared length within the limit (the usual answer): read whole, without iterating the stream.
  if (typeof length === "string" && /^\d{1,5}$/.test(length) && Number(length) <= MAX_BODY) return body.text()
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > MAX_BODY) {
      body.destroy()
      return undefined
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/**
 * HTTP to operators' systems: POST JSON, keep-alive pooling per host, no
 * redirects followed, a time-out for the whole call (answer and body: the
 * request is aborted and fails with `TimedOut`; a timer of the call itself,
 * which costs a fraction of racing an Effect timer on every call), and —
 * unless private addresses are allowed — a refusal
 * of any URL whose host is or resolves to a loopback, private, link-local,
 * unique-local or unspecified address, checked at connect time after DNS.
 */
export class OperatorHttp extends Context.Service<OperatorHttp, {
  readonly allowPrivate: boolean
  post(
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    timeoutMs: number
  ): Effect.Effect<OperatorAnswer, CallFailure>
}>()("@gateway/adapters-operator/http/OperatorHttp") {}

/** The client; with `allowPrivate` (local development, tests) non-public addresses are allowed. */
export const make = (allowPrivate: boolean) =>
  Effect.gen(function*() {
    const agent = yield* Effect.acquireRelease(
      Effect.sync(() =>
        new Agent({
          keepAliveTimeout: 30_000,
          connections: 64,
          ...(allowPrivate ? {} : { connect: { lookup: guardedLookup } })
        })
      ),
      (a) => Effect.promise(() => a.close())
    )
    const refusedUrl = (url: string): string | undefined => {
      let parsed: URL
      try {
        parsed = new URL(url)
      } catch {
        return "the operator URL is not a valid URL"
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "the operator URL is not http(s)"
      const literal = literalAddress(parsed.hostname)
      if (!allowPrivate && (parsed.hostname === "localhost" || (literal !== undefined && isNonPublicAddress(literal)))) {
        return "the operator URL points to a non-public address"
      }
      return undefined
    }
    const post = (url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number) => {
      const refused = refusedUrl(url)
      if (refused !== undefined) return Effect.fail<CallFailure>({ _tag: "Refused", detail: refused })
      return Effect.callback<OperatorAnswer, CallFailure>((resume) => {
        // Undici takes an EventEmitter as the abort signal: one emitter a call instead of two AbortControllers
        // (ours and the one Effect.tryPromise makes), about a fifth of the client's CPU per call.
        const abort = new EventEmitter()
        let settled = false
        const settle = (outcome: Effect.Effect<OperatorAnswer, CallFailure>) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          resume(outcome)
        }
        const timer = setTimeout(() => {
          settle(Effect.fail(timedOut))
          abort.emit("abort")
        }, timeoutMs)
        request(url, {
          method: "POST",
          dispatcher: agent,
          signal: abort,
          headers: { "content-type": "application/json", "user-agent": "operator-gateway/1.1", ...headers },
          body
        }).then((res) =>
          readBody(res.body, res.headers["content-length"]).then((text) =>
            settle(
              text === undefined
                ? Effect.fail({ _tag: "Unreachable", detail: "the operator's answer is larger than 64 KiB" })
                : Effect.succeed({ status: res.statusCode, headers: res.headers, body: text })
            )
          )
        ).catch((error: unknown) =>
          settle(Effect.fail(
            causes(error).some((e) => e instanceof NonPublicAddress)
              ? { _tag: "Refused", detail: "the operator URL resolves to a non-public address" }
              : { _tag: "Unreachable", detail: "the operator's system could not be reached" }
          ))
        )
        // Interrupted (the caller gave up): the call is aborted and whatever it still produces is ignored.
        return Effect.sync(() => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          abort.emit("abort")
        })
      })
    }
    return OperatorHttp.of({ allowPrivate, post })
  })

/** {@link make} as a layer: the connection pool lives as long as the layer. */
export const layer = (allowPrivate: boolean): Layer.Layer<OperatorHttp> => Layer.effect(OperatorHttp, make(allowPrivate))
