import { Context, Effect, Layer } from "effect"
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import type { LookupFunction } from "node:net"
import { Agent, type Dispatcher } from "undici"
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

type Resume = (outcome: Effect.Effect<OperatorAnswer, CallFailure>) => void

const tooLarge: CallFailure = { _tag: "Unreachable", detail: "the operator's answer is larger than 64 KiB" }
const unreachable: CallFailure = { _tag: "Unreachable", detail: "the operator's system could not be reached" }
const nonPublic: CallFailure = { _tag: "Refused", detail: "the operator URL resolves to a non-public address" }
/** The reason undici is given when a call is abandoned (time-out, caller gone, answer too large). */
const abandoned = new Error("the call was abandoned")

/**
 * One call as an undici dispatch handler: the answer's status, headers and
 * body (whole, at most 64 KiB) and the call's time-out, resumed once. Undici's
 * `request` wrapped each answer in a body stream, promises and an abort
 * signal, most of the client's CPU and garbage per call (bench/README.md).
 */
class Call implements Dispatcher.DispatchHandler {
  #resume: Resume | undefined
  #controller: Dispatcher.DispatchController | undefined
  readonly #timer: ReturnType<typeof setTimeout>
  #status = 0
  #headers: OperatorAnswer["headers"] = {}
  readonly #chunks: Array<Buffer> = []
  #size = 0

  constructor(resume: Resume, timeoutMs: number) {
    this.#resume = resume
    this.#timer = setTimeout(() => this.#end(Effect.fail(timedOut)), timeoutMs)
  }

  /** Resumes the caller once; true when this ended the call. */
  #settle(outcome: Effect.Effect<OperatorAnswer, CallFailure>): boolean {
    const resume = this.#resume
    if (resume === undefined) return false
    this.#resume = undefined
    clearTimeout(this.#timer)
    resume(outcome)
    return true
  }

  /** Ends the call before its answer (time-out, too large; `undefined`: the caller is gone) and aborts the request. */
  #end(outcome: Effect.Effect<OperatorAnswer, CallFailure> | undefined): void {
    const ended = outcome === undefined ? this.#resume !== undefined : this.#settle(outcome)
    this.#resume = undefined
    clearTimeout(this.#timer)
    // Not started yet (waiting for a connection): aborted when it starts.
    if (ended) this.#controller?.abort(abandoned)
  }

  /** The caller gave up: the request is aborted and whatever it still produces is ignored. */
  cancel(): void {
    this.#end(undefined)
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#resume === undefined) controller.abort(abandoned)
    else this.#controller = controller
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: OperatorAnswer["headers"]
  ): void {
    this.#status = statusCode
    this.#headers = headers
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#size += chunk.length
    if (this.#size > MAX_BODY) return this.#end(Effect.fail(tooLarge))
    this.#chunks.push(chunk)
  }

  onResponseEnd(): void {
    const chunks = this.#chunks
    const body = chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")
    this.#settle(Effect.succeed({ status: this.#status, headers: this.#headers, body }))
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    this.#settle(Effect.fail(causes(error).some((e) => e instanceof NonPublicAddress) ? nonPublic : unreachable))
  }
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
    /** The URL to call, or why it is refused. */
    const parsedUrl = (url: string): URL | string => {
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
      return parsed
    }
    const post = (url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number) => {
      const target = parsedUrl(url)
      if (typeof target === "string") return Effect.fail<CallFailure>({ _tag: "Refused", detail: target })
      return Effect.callback<OperatorAnswer, CallFailure>((resume) => {
        const call = new Call(resume, timeoutMs)
        agent.dispatch({
          origin: target.origin,
          path: target.pathname + target.search,
          method: "POST",
          headers: { "content-type": "application/json", "user-agent": "operator-gateway/1.1", ...headers },
          body
        }, call)
        // Interrupted (the caller gave up): the call is aborted and whatever it still produces is ignored.
        return Effect.sync(() => call.cancel())
      })
    }
    return OperatorHttp.of({ allowPrivate, post })
  })

/** {@link make} as a layer: the connection pool lives as long as the layer. */
export const layer = (allowPrivate: boolean): Layer.Layer<OperatorHttp> => Layer.effect(OperatorHttp, make(allowPrivate))
