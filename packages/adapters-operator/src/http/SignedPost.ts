import { Clock, Context, Effect, Layer } from "effect"
import type { MerchantId } from "@gateway/domain/Merchant"
import { MerchantSigningKeys } from "../webhooks/MerchantSigningKeys.ts"
import { signMessage } from "../webhooks/Signature.ts"
import { type CallFailure, type OperatorAnswer, OperatorHttp } from "./OperatorHttp.ts"

/** One message to an operator, signed for its merchant. */
export interface SignedMessage {
  readonly merchantId: MerchantId
  readonly url: string
  /** The `webhook-id`: the same on every attempt of one message. */
  readonly messageId: string
  readonly body: string
  /** The call is aborted and fails with `TimedOut` after this many milliseconds. */
  readonly timeoutMs: number
}

/** Why a signed call produced no answer: the operator's failures (a time-out among them), or keys that could not be read. */
export type SendFailure = CallFailure | { readonly _tag: "KeysUnavailable" }

/**
 * The one path of every call to an operator (Details, debit, queued
 * webhooks): the merchant's keys, the Standard Webhooks signature over
 * `id.timestamp.body` (timestamp from the `Clock`), the guarded POST, and
 * its time-out. Callers classify the answer's status themselves.
 */
export class SignedPost extends Context.Service<SignedPost, {
  send(message: SignedMessage): Effect.Effect<OperatorAnswer, SendFailure>
}>()("@gateway/adapters-operator/http/SignedPost") {}

const keysUnavailable: SendFailure = { _tag: "KeysUnavailable" }

/** The signed POST over the guarded client and the shared merchant keys. */
export const layer: Layer.Layer<SignedPost, never, OperatorHttp | MerchantSigningKeys> = Layer.effect(
  SignedPost,
  Effect.gen(function*() {
    const http = yield* OperatorHttp
    const keys = yield* MerchantSigningKeys
    const send = Effect.fnUntraced(function*(message: SignedMessage) {
      const secrets = yield* keys.get(message.merchantId).pipe(Effect.mapError(() => keysUnavailable))
      const now = yield* Clock.currentTimeMillis
      const headers = signMessage(secrets, message.messageId, Math.floor(now / 1000), message.body)
      return yield* http.post(message.url, { ...headers }, message.body, message.timeoutMs)
    })
    return SignedPost.of({ send })
  })
)
