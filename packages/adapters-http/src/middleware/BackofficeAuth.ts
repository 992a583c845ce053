import { Context, Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { Auth, Backoffice, BackofficeSecrets, BackofficeSignIn, BackofficeStore } from "@gateway/domain"
import { Access, BackofficeAuth, CurrentUser } from "@gateway/client/api/Backoffice"
import * as Problem from "@gateway/client/api/Problem"
import * as Ports from "../Ports.ts"
import { guardFailures, RateLimiter } from "./RateLimiter.ts"

const reads = new Set(["GET", "HEAD"])

/** What an endpoint needs of the session's user ({@link Access}). */
export const accessOf = (endpoint: HttpApiEndpoint.Top) => Context.get(endpoint.annotations, Access)

/**
 * The BackofficeAuth middleware (CONTRACT §9), in this order: a live
 * session (401; charged to the client's address like every failed
 * authentication), the session's CSRF token on every call but GET (403),
 * the generated password changed (403 PASSWORD_CHANGE_REQUIRED, but for the
 * endpoints whose {@link Access} allows it), then the role: a user whose
 * role lacks the endpoint's permission is 403 FORBIDDEN. Later back-office
 * endpoints only annotate their {@link Access}.
 */
export const layer: Layer.Layer<BackofficeAuth, never, BackofficeStore | BackofficeSecrets | RateLimiter> = Layer.effect(
  BackofficeAuth,
  Effect.gen(function*() {
    const provide = yield* Ports.capture(BackofficeStore, BackofficeSecrets)
    const guarded = guardFailures(yield* RateLimiter)
    return BackofficeAuth.of({
      session: (httpEffect, { credential, endpoint }) =>
        guarded(Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const access = accessOf(endpoint)
          const user = yield* BackofficeSignIn.sessionUser({
            token: credential,
            csrfToken: request.headers["x-csrf-token"],
            changes: !reads.has(request.method),
            allowDefaultPassword: access.allowDefaultPassword === true
          }).pipe(provide, Effect.mapError(Problem.fromDomain))
          if (access.permission !== undefined && !Backoffice.can(user.role, access.permission)) {
            return yield* Problem.fromDomain(new Auth.Forbidden({
              detail: `the role ${user.role} may not do this (it needs the permission ${access.permission})`
            }))
          }
          return yield* Effect.provideService(httpEffect, CurrentUser, user)
        }))
    })
  })
)
