import { Context, Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import {
  Audit,
  AuditLog,
  Backoffice,
  BackofficeAccount,
  BackofficeSecrets,
  BackofficeSignIn,
  BackofficeStore,
  BackofficeTotp,
  BackofficeUsers,
  Mailer,
  Paging
} from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import { AuditList } from "@gateway/client/api/Audit"
import {
  CurrentUser,
  deviceCookie,
  deviceCookiePath,
  session,
  SignedIn,
  TotpEnrolment,
  User,
  UserList
} from "@gateway/client/api/Backoffice"
import * as Problem from "@gateway/client/api/Problem"
import * as AnswerCookie from "../AnswerCookie.ts"
import * as Ports from "../Ports.ts"
import * as Actor from "./Actor.ts"
import { guardFailures, RateLimiter } from "../middleware/RateLimiter.ts"

/**
 * How the back office answers: whether its cookie is `Secure`, and the name
 * authenticator apps show. The cookie is `Secure` when `PUBLIC_BASE_URL` is
 * https, or behind a trusted proxy (`TRUST_PROXY`) that says the request
 * came over https (`x-forwarded-proto: https`).
 */
export class BackofficeOptions extends Context.Service<BackofficeOptions, {
  readonly httpsBaseUrl: boolean
  readonly trustProxy: boolean
  readonly issuer: string
}>()("@gateway/adapters-http/handlers/Backoffice/BackofficeOptions") {}

/** The options from explicit values. */
export const layerOptions = (options: BackofficeOptions["Service"]) => Layer.succeed(BackofficeOptions, options)

const cookiePath = "/api/v1.1/backoffice"

/**
 * Sets the device cookie of a successful sign-in (docs/backoffice.md): HttpOnly, SameSite=Strict, Secure as the
 * session cookie, sent to the login call only, for `Backoffice.deviceCookieMaxAgeSeconds` (180 days).
 */
const setDeviceCookie = (value: string, secure: boolean) =>
  AnswerCookie.setOnAnswer(deviceCookie, value, {
    httpOnly: true,
    sameSite: "strict",
    secure,
    path: deviceCookiePath,
    maxAge: `${Backoffice.deviceCookieMaxAgeSeconds} seconds`
  })

type AuditEntryFields = Audit.NewAuditEntry

const userOf = (user: Backoffice.User) =>
  new User({
    id: user.id,
    email: user.email,
    role: user.role,
    isDefaultPassword: user.isDefaultPassword,
    verifiedEmail: user.verifiedEmail,
    totpEnabled: user.totpEnabled,
    invitationPending: !user.hasPassword
  })

/** The signed-in user read again after a change. */
const fresh = (id: number) =>
  Effect.flatMap(BackofficeStore, (store) => store.user(id)).pipe(
    Effect.flatMap((found) => found._tag === "Some" ? Effect.succeed(userOf(found.value)) : Effect.die("the user vanished"))
  )

/** Sign-in, password reset and invitations: no session needed. */
export const BackofficeSignInLive = HttpApiBuilder.group(
  Api,
  "backofficeSignIn",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(BackofficeStore, BackofficeSecrets, Mailer, AuditLog)
    const options = yield* BackofficeOptions
    const limiter = yield* RateLimiter
    const guarded = guardFailures(limiter)
    const secure = (request: HttpServerRequest.HttpServerRequest) =>
      options.httpsBaseUrl || (options.trustProxy && request.headers["x-forwarded-proto"]?.trim().toLowerCase() === "https")
    return handlers.handleAll({
      login: ({ payload, request }) =>
        guarded(Effect.gen(function*() {
          const signed = yield* BackofficeSignIn.signIn({
            ...payload,
            address: limiter.addressOf(request),
            deviceCookie: request.cookies[deviceCookie]
          }).pipe(
            provide,
            Effect.mapError(Problem.fromDomain)
          )
          yield* HttpApiBuilder.securitySetCookie(session, signed.token, {
            httpOnly: true,
            sameSite: "strict",
            secure: secure(request),
            path: cookiePath
          })
          yield* setDeviceCookie(signed.deviceCookie, secure(request))
          return new SignedIn({ csrfToken: signed.csrfToken, user: userOf(signed.user) })
        })),
      requestPasswordReset: ({ payload }) =>
        BackofficeAccount.requestPasswordReset(payload.email).pipe(provide, Effect.mapError(Problem.fromDomain)),
      resetPassword: ({ payload, request }) =>
        BackofficeAccount.resetPassword(payload.email, payload.code, payload.newPassword, "password-reset", limiter.addressOf(request)).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        ),
      acceptInvitation: ({ payload, request }) =>
        BackofficeAccount.resetPassword(payload.email, payload.code, payload.password, "invitation", limiter.addressOf(request)).pipe(
          provide,
          Effect.mapError(Problem.fromDomain)
        )
    })
  })
)

/** The signed-in user's account and, for owners, the merchant's users. */
export const BackofficeLive = HttpApiBuilder.group(
  Api,
  "backoffice",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(BackofficeStore, BackofficeSecrets, Mailer)
    const store = yield* BackofficeStore
    const options = yield* BackofficeOptions
    const audit = yield* AuditLog
    const actor = yield* Actor.makeBackoffice
    /** Runs a change of the signed-in user's merchant and records it in the same transaction (CONTRACT §9). */
    const audited = <A, E, R>(
      change: Effect.Effect<A, E, R>,
      entry: (result: A) => Pick<AuditEntryFields, "action" | "before" | "after"> | undefined
    ) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        const who = yield* actor
        return yield* audit.audited(change, (result) => {
          const fields = entry(result)
          return fields === undefined ? undefined : { merchantId: user.merchantId, actor: who, ...fields }
        })
      })
    return handlers.handleAll({
      logout: () =>
        Effect.gen(function*() {
          const user = yield* CurrentUser
          yield* store.endSession(user.sessionId)
          yield* HttpApiBuilder.securitySetCookie(session, Redacted.make(""), {
            httpOnly: true,
            sameSite: "strict",
            path: cookiePath,
            maxAge: "0 seconds"
          })
        }),
      me: () => Effect.map(CurrentUser, userOf),
      changePassword: ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentUser
          // Audited in the use case: the password is checked (and a wrong one counted) before the change's transaction.
          const who = yield* actor
          yield* BackofficeAccount.changePassword(user, payload.currentPassword, payload.newPassword, user.sessionId, who)
          return yield* fresh(user.id)
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      verifyEmail: ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentUser
          yield* BackofficeAccount.verifyEmail(user, payload.code)
          return yield* fresh(user.id)
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      resendVerification: () =>
        Effect.gen(function*() {
          const user = yield* CurrentUser
          if (!user.verifiedEmail) yield* BackofficeAccount.mailCode(user, "verify-email")
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      enrolTotp: () =>
        Effect.flatMap(CurrentUser, (user) => BackofficeTotp.enrolTotp(user, options.issuer)).pipe(
          provide,
          Effect.map((enrolment) => new TotpEnrolment(enrolment)),
          Effect.mapError(Problem.fromDomain)
        ),
      confirmTotp: ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentUser
          yield* audited(
            BackofficeTotp.confirmTotp(user, payload.code),
            () => ({ action: "user.second_factor", before: { user: user.email, totp: false }, after: { user: user.email, totp: true } })
          )
          return yield* fresh(user.id)
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      removeTotp: ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentUser
          // Audited in the use case: the password is checked (and a wrong one counted) before the change's transaction.
          yield* BackofficeTotp.removeTotp(user, payload.password, yield* actor)
          return yield* fresh(user.id)
        }).pipe(provide, Effect.mapError(Problem.fromDomain)),
      listUsers: ({ query }) =>
        Effect.gen(function*() {
          const user = yield* CurrentUser
          const { users, total } = yield* store.listUsers(user.merchantId, query)
          return new UserList({ data: users.map(userOf), meta: Paging.meta(query, total) })
        }),
      inviteUser: ({ payload }) =>
        Effect.flatMap(CurrentUser, (user) =>
          audited(
            BackofficeUsers.inviteUser(user.merchantId, payload.email, payload.role),
            (invited) => ({ action: "user.invite", before: null, after: { user: invited.email, role: invited.role } })
          )).pipe(
          provide,
          Effect.map(userOf),
          Effect.mapError(Problem.fromDomain)
        ),
      removeUser: ({ params }) =>
        Effect.gen(function*() {
          const user = yield* CurrentUser
          const removed = yield* audited(
            store.removeUser(user.merchantId, params.userId),
            (gone) =>
              Option.match(gone, {
                onNone: () => undefined,
                onSome: (target) => ({ action: "user.remove", before: { user: target.email, role: target.role }, after: null })
              })
          )
          if (Option.isNone(removed)) return yield* Problem.make("USER_NOT_FOUND", `no back-office user with id ${params.userId} for this merchant (the owner cannot be removed)`)
        }),
      audit: ({ query }) =>
        Effect.gen(function*() {
          const user = yield* CurrentUser
          const deep = Audit.checkAuditPage(query)
          if (deep !== undefined) return yield* Problem.fromDomain(deep)
          const page = yield* audit.list(user.merchantId, query)
          return new AuditList({ data: page.entries, meta: Paging.meta(query, page.total) })
        })
    })
  })
)
