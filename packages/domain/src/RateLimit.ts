import { Schema } from "effect"

/**
 * What a 429 limited: an API key's rate, a game session's rate, or the
 * failed authentications of one client address (CONTRACT §2: only the
 * failing requests of an address are refused by that one), or the failed
 * sign-ins of one back-office account, or the codes mailed to one (CONTRACT §9).
 */
export const RateLimitSubject = Schema.Literals(["apiKey", "session", "address", "account", "mail"])
export type RateLimitSubject = typeof RateLimitSubject.Type

const what: Record<RateLimitSubject, string> = {
  apiKey: "rate limit reached for this API key",
  session: "rate limit reached for this game session",
  address: "too many failed authentications from this address",
  account: "too many failed sign-ins to this account",
  mail: "a code was mailed to this address less than a minute ago"
}

/** Too many requests of one kind (`subject`, when known); try again after `retryAfterSeconds`. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  retryAfterSeconds: Schema.Int,
  subject: Schema.optional(RateLimitSubject)
}) {
  override get message(): string {
    return `${this.subject === undefined ? "rate limit reached" : what[this.subject]}; retry after ${this.retryAfterSeconds} s`
  }
}
