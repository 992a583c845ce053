import { Effect, Option, Redacted } from "effect"
import { codeIntervalSeconds, codeLifetimeSeconds, type CodePurpose, codeTries, passwordProblem, type UserWithSecrets } from "../Backoffice.ts"
import { type Actor, backofficeActor } from "../Audit.ts"
import { RateLimited } from "../RateLimit.ts"
import { AuditLog } from "../ports/AuditLog.ts"
import { ValidationFailed } from "../Validation.ts"
import { BackofficeSecrets } from "../ports/BackofficeSecrets.ts"
import { BackofficeStore } from "../ports/BackofficeStore.ts"
import { Mailer, type MailFailed } from "../ports/Mailer.ts"
import { recheckPassword } from "./BackofficeSignIn.ts"

const subjects: { readonly [P in CodePurpose]: string } = {
  "verify-email": "Your e-mail verification code",
  "password-reset": "Your password reset code",
  invitation: "You are invited to the back office"
}

const bodies: { readonly [P in CodePurpose]: (code: string, user: UserWithSecrets) => string } = {
  "verify-email": (code) => `Your code to verify this e-mail address is ${code}. It expires in 15 minutes.`,
  "password-reset": (code) =>
    `Your code to reset your back-office password is ${code}. It expires in 15 minutes. ` +
    "If you did not ask for it, ignore this mail: your password is unchanged.",
  invitation: (code, user) =>
    `You are invited to the back office of ${user.companyName} as ${user.role}. ` +
    `Your invitation code is ${code} (valid 72 hours): open the back office, choose "accept invitation" and set a password.`
}

/**
 * Replaces the user's code of `purpose` with a new one and mails it; at most one a minute for each user and
 * purpose (429 RATE_LIMITED otherwise), so nobody can bomb an inbox through the gateway.
 */
export const mailCode = Effect.fn("Backoffice.mailCode")(function*(user: UserWithSecrets, purpose: CodePurpose) {
  const code = yield* (yield* BackofficeSecrets).newCode
  const stored = yield* (yield* BackofficeStore).putCode(
    user.id, purpose, code.stored, codeLifetimeSeconds[purpose], codeTries, codeIntervalSeconds
  )
  if (!stored) return yield* new RateLimited({ retryAfterSeconds: codeIntervalSeconds, subject: "mail" })
  yield* (yield* Mailer).send({ to: user.email, subject: subjects[purpose], text: bodies[purpose](Redacted.value(code.value), user) })
    .pipe(Effect.catchTag("MailFailed", (failed): Effect.Effect<never, MailFailed | ValidationFailed> =>
      failed.recipientRefused === true
        ? Effect.fail(new ValidationFailed({ field: "email", detail: "the mail server refuses this address" }))
        : Effect.fail(failed)))
})

const wrongCode = new ValidationFailed({
  field: "code",
  detail: "wrong, expired or out of tries: ask for a new code"
})

/** Spends one of the code's tries; succeeds (and uses the code up) only when it matches. */
export const checkCode = Effect.fn("Backoffice.checkCode")(function*(userId: number, purpose: CodePurpose, code: string) {
  const store = yield* BackofficeStore
  const stored = Option.getOrUndefined(yield* store.spendCodeTry(userId, purpose))
  if (stored === undefined || !(yield* (yield* BackofficeSecrets).verifyPassword(code, stored))) return yield* wrongCode
  yield* store.dropCode(userId, purpose)
})

const checkRules = (password: string, user: UserWithSecrets, field: string) => {
  const problem = passwordProblem(password, user.email, user.companyName)
  return problem === undefined ? Effect.void : Effect.fail(new ValidationFailed({ field, detail: problem }))
}

/** Sets a password that passes the rules; ends every session of the user but `keepSession`. */
export const storePassword = Effect.fn("Backoffice.storePassword")(function*(
  user: UserWithSecrets, password: string, field: string, keepSession: string | undefined
) {
  yield* checkRules(password, user, field)
  const secrets = yield* BackofficeSecrets
  yield* (yield* BackofficeStore).setPassword(user.id, yield* secrets.hashPassword(password), keepSession)
})

/**
 * A signed-in user changes its password, giving the current one: a wrong one is 401 INVALID_CREDENTIALS counted as
 * a failed sign-in of the account, and an account that failed too often waits as at sign-in (429), so a session
 * someone else holds cannot guess the password here faster than at sign-in ({@link recheckPassword}). The check
 * and its count come before the change's transaction (a failure rolled back with it would count nothing); the
 * change and its audit entry (`user.password`, by `actor`) are one transaction.
 */
export const changePassword = Effect.fn("Backoffice.changePassword")(function*(
  user: UserWithSecrets, currentPassword: string, newPassword: string, sessionId: string, actor: Actor
) {
  if (newPassword === currentPassword) {
    return yield* new ValidationFailed({ field: "newPassword", detail: "must differ from the current password" })
  }
  yield* checkRules(newPassword, user, "newPassword")
  yield* recheckPassword(user, currentPassword)
  yield* (yield* AuditLog).audited(storePassword(user, newPassword, "newPassword", sessionId), () => ({
    merchantId: user.merchantId,
    actor,
    action: "user.password",
    before: null,
    after: { user: user.email, password: "changed" }
  }))
})

/** Marks the e-mail verified with the mailed (or create's) 6-digit code. */
export const verifyEmail = Effect.fn("Backoffice.verifyEmail")(function*(user: UserWithSecrets, code: string) {
  if (user.verifiedEmail) return
  yield* checkCode(user.id, "verify-email", code)
  yield* (yield* BackofficeStore).setVerifiedEmail(user.id)
})

/** Mails a password-reset code when the e-mail is a user's; answers alike either way. */
export const requestPasswordReset = Effect.fn("Backoffice.requestPasswordReset")(function*(email: string) {
  const user = Option.getOrUndefined(yield* (yield* BackofficeStore).userByEmail(email.trim()))
  if (user === undefined || user.passwordHash === undefined || user.accountStatus === "closed") return
  // The same answer when a code went out a moment ago: nothing tells whether the address is a user's.
  yield* mailCode(user, "password-reset").pipe(Effect.catchTag("RateLimited", () => Effect.void))
})

/**
 * Sets a new password with a reset (or invitation) code; every session of the user ends. The new password (and the
 * e-mail the code proved) is recorded in the audit log in the same transaction, as done by the user from `address`;
 * the code's try is spent before, so a wrong code is never rolled back into a fresh try.
 */
export const resetPassword = Effect.fn("Backoffice.resetPassword")(function*(
  email: string, code: string, newPassword: string, purpose: "password-reset" | "invitation", address: string
) {
  const store = yield* BackofficeStore
  const user = Option.getOrUndefined(yield* store.userByEmail(email.trim()))
  if (user === undefined) return yield* wrongCode
  const field = purpose === "invitation" ? "password" : "newPassword"
  yield* checkRules(newPassword, user, field)
  yield* checkCode(user.id, purpose, code)
  yield* (yield* AuditLog).audited(
    Effect.andThen(
      storePassword(user, newPassword, field, undefined),
      // The mailed code proves the address, as the verification code would.
      user.verifiedEmail ? Effect.void : store.setVerifiedEmail(user.id)
    ),
    () => ({
      merchantId: user.merchantId,
      actor: backofficeActor(user.email, address),
      action: "user.password",
      before: null,
      after: purpose === "invitation"
        ? { user: user.email, password: "set", invitation: "accepted" }
        : { user: user.email, password: "changed", by: "reset code" }
    })
  )
})
