import { Clock, Context, Effect, Layer } from "effect"
import type { MerchantId } from "@gateway/domain/Merchant"
import { MerchantSigningKeys } from "../webhooks/MerchantSigningKeys.ts"
import { signMessage } from "../webhooks/Signature.ts"
import * as CallSpan from "./CallSpan.ts"
import { type CallFailure, type OperatorAnswer, OperatorHttp } from "./OperatorHttp.ts"
import { OperatorCircuit, type Paused } from "./OperatorCircuit.ts"

/** One message to an operator, signed for its merchant. */
export interface SignedMessage {
  readonly merchantId: MerchantId
  readonly url: string
  /** The `webhook-id`: the same on every attempt of one message. */
  readonly messageId: string
  readonly body: string
  /** The call is aborted and fails with `TimedOut` after this many milliseconds. */
  readonly timeoutMs: number
  /** The name of the call's span when traces are exported (`OperatorDetails.fetch`, …). */
  readonly span?: string | undefined
  /** When it is signed (epoch ms, the `webhook-timestamp`), for a caller that records it; default the `Clock`'s now. */
  readonly timestampMs?: number | undefined
}

/**
 * Why a signed call produced no answer: the operator's failures (a time-out among them), keys that could not be
 * read, or the merchant's circuit breaker open (`Paused`: the call was not made).
 */
export type SendFailure = CallFailure | { readonly _tag: "KeysUnavailable" } | Paused

/**
 * The one path of every call to an operator (Details, debit, queued
 * webhooks): the merchant's keys, the Standard Webhooks signature over
 * `id.timestamp.body` (timestamp from the `Clock`), the guarded POST, and
 * its time-out. Callers classify the answer's status themselves. When traces
 * are exported each call is a client span, child of the caller's and parent
 * of what runs inside it (the keys' lookup), and carries its W3C
 * `traceparent`; otherwise neither exists. Every call goes through the
 * merchant's circuit breaker (`OperatorCircuit`), which refuses it with
 * `Paused` while the operator keeps failing.
 */
export class SignedPost extends Context.Service<SignedPost, {
  send(message: SignedMessage): Effect.Effect<OperatorAnswer, SendFailure>
}>()("@gateway/adapters-operator/http/SignedPost") {}

const keysUnavailable: SendFailure = { _tag: "KeysUnavailable" }

/** The signed POST over the guarded client and the shared merchant keys. */
export const layer: Layer.Layer<SignedPost, never, OperatorHttp | MerchantSigningKeys | OperatorCircuit> = Layer.effect(
  SignedPost,
  Effect.gen(function*() {
    const http = yield* OperatorHttp
    const keys = yield* MerchantSigningKeys
    const circuit = yield* OperatorCircuit
    const post = (message: SignedMessage, traceparent: string | undefined) =>
      circuit.guard(message.merchantId, Effect.flatMap(Effect.mapError(keys.get(message.merchantId), () => keysUnavailable), (secrets) =>
        Effect.flatMap(message.timestampMs === undefined ? Clock.currentTimeMillis : Effect.succeed(message.timestampMs), (now) => {
          const headers = signMessage(secrets, message.messageId, Math.floor(now / 1000), message.body, now)
          return http.post(
            message.url,
            traceparent === undefined ? { ...headers } : { ...headers, traceparent },
            message.body,
            message.timeoutMs
          )
        })))
    const traced = (message: SignedMessage) =>
      Effect.flatMap(Effect.option(Effect.currentSpan), (span) =>
        post(message, span._tag === "Some" ? CallSpan.traceparent(span.value) : undefined)).pipe(
          Effect.tap((answer) => Effect.annotateCurrentSpan("http.response.status_code", answer.status)),
          Effect.withSpan(message.span ?? "SignedPost.send", {
            kind: "client",
            attributes: { ...CallSpan.attributes(message.url), "webhook.id": message.messageId }
          })
        )
    const untraced = (message: SignedMessage) => post(message, undefined)
    return SignedPost.of({ send: (yield* CallSpan.exported) ? traced : untraced })
  })
)
