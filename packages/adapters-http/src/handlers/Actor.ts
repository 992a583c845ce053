import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { Audit } from "@gateway/domain"
import { CurrentUser } from "@gateway/client/api/Backoffice"
import { CurrentAdmin } from "@gateway/client/api/Security"
import { RateLimiter } from "../middleware/RateLimiter.ts"

/**
 * Who makes an admin request, for the audit log: the bearer token's subject
 * and the client's address as the rate limiter sees it (the peer, or the
 * trusted proxy's `x-forwarded-for` entry). Read while the handlers are built.
 */
export const make = Effect.gen(function*() {
  const limiter = yield* RateLimiter
  return Effect.gen(function*() {
    const admin = yield* CurrentAdmin
    const request = yield* HttpServerRequest.HttpServerRequest
    return Audit.adminActor(admin.subject, limiter.addressOf(request))
  })
})

/** Who changes an operator's own settings by its API key, for the audit log: `api-key`, and the client's address. */
export const makeOperator = Effect.gen(function*() {
  const limiter = yield* RateLimiter
  return Effect.map(HttpServerRequest.HttpServerRequest, (request): Audit.Actor => ({
    who: "api-key",
    address: limiter.addressOf(request)
  }))
})

/** Who makes a back-office request, for the audit log: the signed-in user's e-mail, and the client's address. */
export const makeBackoffice = Effect.gen(function*() {
  const limiter = yield* RateLimiter
  return Effect.gen(function*() {
    const user = yield* CurrentUser
    const request = yield* HttpServerRequest.HttpServerRequest
    return Audit.backofficeActor(user.email, limiter.addressOf(request))
  })
})
