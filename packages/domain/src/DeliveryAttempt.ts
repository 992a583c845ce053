import { Schema } from "effect"
import { ListedDelivery } from "./Delivery.ts"
import { UtcTimestamp } from "./Validation.ts"

/** How much of an operator's answer body an attempt keeps (bytes of UTF-8, about). */
export const maxAnswerBody = 2048

/** At most this many attempts are kept per message: the first ones and the latest (the rows of failures). */
export const maxKeptAttempts = 20

/** The answer headers an attempt keeps: what explains an answer, never a cookie. */
export const keptAnswerHeaders: ReadonlyArray<string> = [
  "content-type", "content-length", "retry-after", "date", "server", "location", "x-request-id"
]

/**
 * One attempt as the delivery worker records it: when it was signed (the
 * `webhook-timestamp`, in ms), how long it took, where it went, and the
 * operator's answer or why there was none. The request's headers are not
 * stored: they follow from the message's id, body and this timestamp.
 */
export interface AttemptRecord {
  readonly at: number
  readonly durationMs: number
  readonly url: string
  readonly status?: number | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly body?: string | undefined
  readonly error?: string | undefined
}

/** An operator's answer trimmed for keeping: the {@link keptAnswerHeaders}, the body cut at {@link maxAnswerBody}. */
export const answerOf = (
  status: number,
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  body: string
): Pick<AttemptRecord, "status" | "headers" | "body"> => {
  const kept: Record<string, string> = {}
  for (const name of keptAnswerHeaders) {
    const value = headers[name]
    if (value !== undefined) kept[name] = typeof value === "string" ? value : value.join(", ")
  }
  return { status, headers: kept, body: body.length > maxAnswerBody ? body.slice(0, maxAnswerBody) : body }
}

const Headers = Schema.Record(Schema.String, Schema.String)

/** The signed request of an attempt, as the operator received it. */
export class AttemptRequest extends Schema.Class<AttemptRequest>("@gateway/domain/AttemptRequest")(Schema.Struct({
  method: Schema.Literal("POST").annotate({ description: "Always POST" }),
  url: Schema.String.annotate({ description: "Where it went; the values of a query string are shown as `…`" }),
  headers: Headers.annotate({
    description: "The headers sent: `content-type`, `webhook-id`, `webhook-timestamp` and `webhook-signature` " +
      "(recomputed from the stored id, timestamp and body with the merchant's current secrets: after a rotation " +
      "they differ from those sent)"
  }),
  body: Schema.String.annotate({ description: "The exact JSON body sent (the same on every attempt)" })
}).annotate({ identifier: "DeliveryAttemptRequest", description: "The signed request of a delivery attempt." })) {}

/** The operator's answer to an attempt. */
export class AttemptAnswer extends Schema.Class<AttemptAnswer>("@gateway/domain/AttemptAnswer")(Schema.Struct({
  status: Schema.Int.annotate({ description: "The HTTP status" }),
  headers: Headers.annotate({ description: `Some of the answer's headers (${keptAnswerHeaders.join(", ")})` }),
  body: Schema.String.annotate({ description: `The answer's body, cut at ${maxAnswerBody} characters` })
}).annotate({ identifier: "DeliveryAttemptAnswer", description: "What the operator answered to an attempt." })) {}

/** One attempt of a delivery: its request, and the answer or the transport error. */
export class DeliveryAttempt extends Schema.Class<DeliveryAttempt>("@gateway/domain/DeliveryAttempt")(Schema.Struct({
  at: UtcTimestamp("When the attempt was signed and sent (its `webhook-timestamp`, ISO 8601, UTC)"),
  durationMs: Schema.Int.annotate({ description: "How long the operator took to answer, in milliseconds" }),
  request: AttemptRequest,
  answer: Schema.optionalKey(AttemptAnswer),
  error: Schema.optionalKey(Schema.String.annotate({
    description: "Why there was no answer (time-out, unreachable) or why the answer did not count"
  }))
}).annotate({ identifier: "DeliveryAttempt", description: "One attempt of a webhook delivery." })) {}

/** A message of the outbox with its body and its recorded attempts, oldest first. */
export class DeliveryDetail extends Schema.Class<DeliveryDetail>("@gateway/domain/DeliveryDetail")(Schema.Struct({
  ...ListedDelivery.fields,
  body: Schema.String.annotate({ description: "The message's JSON body" }),
  attemptLog: Schema.Array(DeliveryAttempt).annotate({
    description: `The recorded attempts, oldest first: every failed one (at most ${maxKeptAttempts}) and the one ` +
      "that was delivered. Attempts made before this record existed are counted in `attempts` only."
  })
}).annotate({ identifier: "DeliveryDetail", description: "A webhook message with its attempts' requests and answers." })) {}

/** What the outbox keeps of a message for {@link DeliveryDetail}: its listing, body and attempt records. */
export interface StoredDelivery {
  readonly listed: ListedDelivery
  readonly body: string
  readonly attempts: ReadonlyArray<AttemptRecord>
}

/** The answer of an immediate webhook test: the operator's answer or the error, at once. */
export class PingResult extends Schema.Class<PingResult>("@gateway/domain/PingResult")(Schema.Struct({
  deliveryId: Schema.String.annotate({ description: "The ping's id (its `webhook-id`), listed with the deliveries" }),
  delivered: Schema.Boolean.annotate({ description: "True when the operator answered 2xx" }),
  durationMs: Schema.Int.annotate({ description: "How long the operator took, in milliseconds" }),
  status: Schema.optionalKey(Schema.Int.annotate({ description: "The HTTP status the operator answered" })),
  body: Schema.optionalKey(Schema.String.annotate({ description: `The answer's body, cut at ${maxAnswerBody} characters` })),
  error: Schema.optionalKey(Schema.String.annotate({ description: "Why there was no 2xx answer" }))
}).annotate({ identifier: "PingResult", description: "A signed `webhook.test` sent now, and the operator's answer." })) {}
