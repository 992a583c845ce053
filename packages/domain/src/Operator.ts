import { Schema } from "effect"

/** The operator's system did not answer within the time-out. */
export class OperatorTimeout extends Schema.TaggedError<OperatorTimeout>()("OperatorTimeout", {
  timeoutMs: Schema.Int,
  /** Which of the operator's URLs: the player's Details URL (default) or the shop's (CONTRACT §11). */
  url: Schema.optionalKey(Schema.Literals(["userDetailsUrl", "shopDetailsUrl"]))
}) {
  override get message(): string {
    const which = this.url === "shopDetailsUrl" ? "shop Details URL (shopDetailsUrl)" : "Details URL"
    return `the operator's ${which} did not answer within ${this.timeoutMs} ms`
  }
}

/** The operator's system answered 5xx, could not be reached, or sent a body that does not parse. */
export class OperatorBadResponse extends Schema.TaggedError<OperatorBadResponse>()("OperatorBadResponse", {
  detail: Schema.String
}) {
  override get message(): string {
    return this.detail
  }
}

/**
 * The operator's system kept failing and its circuit breaker is open: the
 * call was not made (CONTRACT §1, 503 OPERATOR_UNAVAILABLE). Try again after
 * `retryAfterSeconds`.
 */
export class OperatorUnavailable extends Schema.TaggedError<OperatorUnavailable>()("OperatorUnavailable", {
  retryAfterSeconds: Schema.Int
}) {
  override get message(): string {
    return `the operator's system keeps failing, so calls to it are paused; retry after ${this.retryAfterSeconds} s`
  }
}
