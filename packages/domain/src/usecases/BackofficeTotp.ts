import { Effect, Option, Redacted } from "effect"
import type { UserWithSecrets } from "../Backoffice.ts"
import { ValidationFailed } from "../Validation.ts"
import { BackofficeSecrets } from "../ports/BackofficeSecrets.ts"
import type { Actor } from "../Audit.ts"
import { AuditLog } from "../ports/AuditLog.ts"
import { BackofficeStore } from "../ports/BackofficeStore.ts"
import { recheckPassword } from "./BackofficeSignIn.ts"

/** What an authenticator app needs: the base32 secret and the `otpauth://` URI of RFC 6238 apps. */
export interface TotpEnrolment {
  readonly secret: string
  readonly otpauthUrl: string
}

/** Starts (or restarts) TOTP enrolment; sign-in asks for codes only once {@link confirmTotp} succeeded. */
export const enrolTotp = Effect.fn("Backoffice.enrolTotp")(function*(user: UserWithSecrets, issuer: string) {
  if (user.totpEnabled) {
    return yield* new ValidationFailed({ field: "", detail: "TOTP is on already: turn it off first (DELETE totp)" })
  }
  const secret = yield* (yield* BackofficeSecrets).newTotpSecret
  const store = yield* BackofficeStore
  yield* store.setTotp(user.id, secret)
  const label = encodeURIComponent(`${issuer}:${user.email}`)
  return {
    secret: Redacted.value(secret),
    otpauthUrl: `otpauth://totp/${label}?secret=${Redacted.value(secret)}&issuer=${encodeURIComponent(issuer)}` +
      "&algorithm=SHA1&digits=6&period=30"
  } satisfies TotpEnrolment
})

const wrongTotp = new ValidationFailed({ field: "code", detail: "not the current code of the authenticator app" })

/** Turns TOTP on with a first code from the app. */
export const confirmTotp = Effect.fn("Backoffice.confirmTotp")(function*(user: UserWithSecrets, code: string) {
  const store = yield* BackofficeStore
  const secret = Option.getOrUndefined(yield* store.totp(user.id))
  if (secret === undefined) return yield* new ValidationFailed({ field: "", detail: "no TOTP enrolment: POST totp first" })
  if (!(yield* (yield* BackofficeSecrets).totpValid(secret.secret, code))) return yield* wrongTotp
  yield* store.enableTotp(user.id)
})

/**
 * Turns TOTP off, given the password: a wrong one is 401 INVALID_CREDENTIALS counted as a failed sign-in of the
 * account, which waits as at sign-in once it failed too often (429; {@link recheckPassword}), checked and counted
 * before the change's transaction; the change and its audit entry (`user.second_factor`, by `actor`) are one.
 */
export const removeTotp = Effect.fn("Backoffice.removeTotp")(function*(user: UserWithSecrets, password: string, actor: Actor) {
  yield* recheckPassword(user, password)
  yield* (yield* AuditLog).audited((yield* BackofficeStore).removeTotp(user.id), () => ({
    merchantId: user.merchantId,
    actor,
    action: "user.second_factor",
    before: { user: user.email, totp: true },
    after: { user: user.email, totp: false }
  }))
})
