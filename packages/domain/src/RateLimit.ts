import { Schema } from "effect"

/** Too many requests for one API key; try again after `retryAfterSeconds`. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  retryAfterSeconds: Schema.Int
}) {
  override get message(): string {
    return `rate limit reached for this API key; retry after ${this.retryAfterSeconds} s`
  }
}
