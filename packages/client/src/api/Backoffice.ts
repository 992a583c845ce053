import { Context, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, HttpApiSecurity, OpenApi } from "effect/http-api"
import { Backoffice, Paging, Validation } from "@gateway/domain"
import { GamesQuery } from "./Games.ts"
import { auditDepth, AuditList } from "./Audit.ts"
import * as Problem from "./Problem.ts"

/** The name of the back-office session cookie (`HttpOnly`, `SameSite=Strict`, `Path=/api/v1.1/backoffice`). */
export const sessionCookie = "gateway_backoffice"

/**
 * The name of the back-office device cookie (OWASP's device cookies): set by every successful sign-in, for its
 * account; a sign-in that carries it for the account it signs in to does not wait for its address's failures.
 */
export const deviceCookie = "gateway_backoffice_device"

/** Where the device cookie is sent: the login call only. */
export const deviceCookiePath = "/api/v1.1/backoffice/login"

/** The session cookie of the back office, as a security scheme. */
export const session = HttpApiSecurity.apiKey({ in: "cookie", key: sessionCookie }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "The session cookie `POST /api/v1.1/backoffice/login` sets (HttpOnly, SameSite=Strict, Secure behind https). " +
      "Every call but GET also needs the `x-csrf-token` header that login answered (else 403 FORBIDDEN). No cookie, " +
      "or a session idle longer than `BACKOFFICE_SESSION_IDLE_SECONDS` (30 min) or older than " +
      "`BACKOFFICE_SESSION_MAX_SECONDS` (12 h): 401 UNAUTHORIZED. While the account keeps its generated password, " +
      "everything but `POST password` and `POST logout` is 403 PASSWORD_CHANGE_REQUIRED."
  )
)

/** The user behind the current back-office request's session. */
export class CurrentUser extends Context.Service<CurrentUser, Backoffice.UserWithSecrets & {
  /** The stored id of the request's session (a digest of the cookie). */
  readonly sessionId: string
}>()("@gateway/client/api/Backoffice/CurrentUser") {}

/**
 * What a back-office endpoint needs beyond a session: the permission of
 * {@link Backoffice.can} (absent: any role), and whether it is open while the
 * generated password is kept. The BackofficeAuth middleware reads it: the
 * one role guard of every back-office page.
 */
export const Access = Context.Reference<{
  readonly permission?: Backoffice.Permission | undefined
  readonly allowDefaultPassword?: boolean | undefined
}>("@gateway/client/api/Backoffice/Access", { defaultValue: () => ({}) })

/** Back-office endpoints: a session cookie, CSRF on writes, the endpoint's {@link Access}. */
export class BackofficeAuth extends HttpApiMiddleware.Service<BackofficeAuth, { provides: CurrentUser }>()(
  "@gateway/client/api/Backoffice/BackofficeAuth",
  {
    security: { session },
    error: [
      Problem.response(401, ["UNAUTHORIZED"]),
      Problem.response(403, ["FORBIDDEN", "PASSWORD_CHANGE_REQUIRED"]),
      Problem.response(429, ["RATE_LIMITED"])
    ]
  }
) {}

const Password = Schema.String.check(Schema.isMaxLength(Backoffice.maxPasswordLength), Validation.isStorableText)
const newPassword = {
  description: `At least ${Backoffice.minPasswordLength} characters, not containing the e-mail address or the company name`
}
const Code = Schema.String.check(Schema.isPattern(/^\d{6}$/u, { message: "must be 6 digits" }))
const Email = Backoffice.MailAddress.annotate({ description: "The user's e-mail address (compared case-insensitively)" })

/** A back-office user, as the API shows it. */
export class User extends Schema.Class<User>("@gateway/client/api/Backoffice/User")(Schema.Struct({
  id: Schema.Int.annotate({ description: "The user's id within the gateway" }),
  email: Schema.String.annotate({ description: "The user's e-mail address: its login" }),
  role: Backoffice.Role.annotate({ description: "`owner`, `developer`, `finance` or `support`" }),
  isDefaultPassword: Schema.Boolean.annotate({ description: "True while the generated password of create is kept" }),
  verifiedEmail: Schema.Boolean.annotate({ description: "True once the e-mail address was verified with a mailed code" }),
  totpEnabled: Schema.Boolean.annotate({ description: "True when sign-in asks for a TOTP code too" }),
  invitationPending: Schema.Boolean.annotate({ description: "True for an invited user who has not set a password yet" })
}).annotate({ identifier: "BackofficeUser", description: "A user of a merchant's back office." })) {}

/** The body of a sign-in. */
export class Login extends Schema.Class<Login>("@gateway/client/api/Backoffice/Login")(Schema.Struct({
  email: Schema.String.check(Schema.isMaxLength(254), Validation.isStorableText).annotateKey({ description: "The e-mail address" }),
  password: Password.annotateKey({ description: "The password" }),
  totpCode: Schema.optionalKey(Code.annotate({ description: "The authenticator app's 6 digits, for an account with TOTP on" }))
}).annotate({ identifier: "BackofficeLogin", description: "The body of a back-office sign-in." })) {}

/** The answer of a sign-in; the session itself is in the cookie. */
export class SignedIn extends Schema.Class<SignedIn>("@gateway/client/api/Backoffice/SignedIn")(Schema.Struct({
  csrfToken: Schema.String.annotate({ description: "Send it as `x-csrf-token` on every call but GET of this session" }),
  user: User
}).annotate({ identifier: "BackofficeSignedIn", description: "A session just opened: its CSRF token and its user." })) {}

/** The body of a password change. */
export class PasswordChange extends Schema.Class<PasswordChange>("@gateway/client/api/Backoffice/PasswordChange")(Schema.Struct({
  currentPassword: Password.annotateKey({ description: "The password now (the generated one at first)" }),
  newPassword: Password.annotateKey(newPassword)
}).annotate({ identifier: "BackofficePasswordChange", description: "The current password and the new one." })) {}

/** A mailed 6-digit code, or the authenticator app's. */
export class CodeBody extends Schema.Class<CodeBody>("@gateway/client/api/Backoffice/CodeBody")(Schema.Struct({
  code: Code.annotate({ description: "The 6 digits" })
}).annotate({ identifier: "BackofficeCode", description: "A 6-digit code." })) {}

/** Asks for a password-reset code. */
export class ResetRequest extends Schema.Class<ResetRequest>("@gateway/client/api/Backoffice/ResetRequest")(Schema.Struct({
  email: Email
}).annotate({ identifier: "BackofficePasswordResetRequest", description: "The e-mail address to mail a reset code to." })) {}

/** Sets a new password with a mailed reset code. */
export class ResetConfirm extends Schema.Class<ResetConfirm>("@gateway/client/api/Backoffice/ResetConfirm")(Schema.Struct({
  email: Email,
  code: Code.annotate({ description: "The 6 digits of the reset mail" }),
  newPassword: Password.annotateKey(newPassword)
}).annotate({ identifier: "BackofficePasswordReset", description: "A reset code and the new password." })) {}

/** Accepts an invitation: the mailed code and the invitee's password. */
export class AcceptInvitation extends Schema.Class<AcceptInvitation>("@gateway/client/api/Backoffice/AcceptInvitation")(Schema.Struct({
  email: Email,
  code: Code.annotate({ description: "The 6 digits of the invitation mail" }),
  password: Password.annotateKey(newPassword)
}).annotate({ identifier: "BackofficeInvitationAcceptance", description: "An invitation code and the invitee's password." })) {}

/** An owner's invitation. */
export class Invite extends Schema.Class<Invite>("@gateway/client/api/Backoffice/Invite")(Schema.Struct({
  email: Email,
  role: Schema.Literals(["developer", "finance", "support"]).annotate({ description: "`developer`, `finance` or `support`" })
}).annotate({ identifier: "BackofficeInvitation", description: "Whom to invite, and as what." })) {}

/** The password again, to turn TOTP off. */
export class PasswordBody extends Schema.Class<PasswordBody>("@gateway/client/api/Backoffice/PasswordBody")(Schema.Struct({
  password: Password.annotateKey({ description: "The user's password" })
}).annotate({ identifier: "BackofficePassword", description: "The user's password, asked again." })) {}

/** A TOTP enrolment: what the authenticator app needs. */
export class TotpEnrolment extends Schema.Class<TotpEnrolment>("@gateway/client/api/Backoffice/TotpEnrolment")(Schema.Struct({
  secret: Schema.String.annotate({ description: "The shared secret, base32 (shown only here)" }),
  otpauthUrl: Schema.String.annotate({ description: "The same as an `otpauth://totp/…` URI, for a QR code" })
}).annotate({ identifier: "BackofficeTotpEnrolment", description: "A TOTP secret to add to an authenticator app (RFC 6238: SHA-1, 6 digits, 30 s)." })) {}

/** The users of a merchant's back office. */
export class UserList extends Schema.Class<UserList>("@gateway/client/api/Backoffice/UserList")(Schema.Struct({
  data: Schema.Array(User).annotate({ description: "The users of this page, oldest first (the owner first)" }),
  meta: Paging.PageMeta
}).annotate({ identifier: "BackofficeUserList", description: "The users of a merchant's back office." })) {}

const noContent = (description: string) => HttpApiSchema.NoContent.annotate({ description })

/** Sign-in and what a user can do without a session. */
export class BackofficeSignInApi extends HttpApiGroup.make("backofficeSignIn")
  .add(
    HttpApiEndpoint.post("login", "/login", {
      payload: Login,
      success: SignedIn,
      error: Problem.responses("INVALID_CREDENTIALS", "TOTP_REQUIRED", "RATE_LIMITED")
    })
      .annotate(OpenApi.Summary, "Sign in to the back office")
      .annotate(
        OpenApi.Description,
        "Sets the session cookie and answers its CSRF token and the user. A wrong password and an unknown e-mail get " +
          "the same 401 INVALID_CREDENTIALS in about the same time. An account with TOTP on whose password is right " +
          "gets 401 TOTP_REQUIRED without `totpCode`; a wrong `totpCode` is INVALID_CREDENTIALS. From the 6th failed " +
          "sign-in in a row, an account waits 2, 4, 8 … seconds (at most 15 minutes; never locked for good) before its " +
          "next try: 429 RATE_LIMITED with `retry-after`. So does the client's address after 20 failed sign-ins from it to " +
          "any accounts: 2, 4, 8 … seconds (at most 15 minutes) before the next sign-in from it, whatever its account — " +
          "except a sign-in carrying the device cookie of the account it signs in to. Tries sent at once count as the " +
          "same tries one after the other (each is counted before its password is checked): a burst of wrong " +
          "passwords gets at most 5 checked, the rest 429. Every successful sign-in (with " +
          "its `totpCode` when the account has TOTP) also sets the device cookie `" + deviceCookie + "` for its account " +
          "(HttpOnly, SameSite=Strict, Secure as the session cookie, `Path=" + deviceCookiePath + "`, Max-Age 180 days; " +
          "the user id and the sign-in's time, signed by the server): a browser that signed in to an account before is " +
          "never kept waiting by failures others made, on its account or from its address (CONTRACT §2): it waits " +
          "only for the failures made with that cookie, as an account would. A cookie of another account, forged, " +
          "altered or older than 180 days is ignored."
      ),
    HttpApiEndpoint.post("requestPasswordReset", "/password-reset", {
      payload: ResetRequest,
      success: noContent("Accepted: a reset code is mailed if the address is a user's; no body"),
      error: Problem.responses("MAIL_FAILED")
    })
      .annotate(OpenApi.Summary, "Mail a password-reset code")
      .annotate(
        OpenApi.Description,
        "Answers 204 whether or not the address is a user's. The code is valid 15 minutes, for 5 tries; at most one " +
          "code a minute is mailed (a request sooner also answers 204 and mails nothing)."
      ),
    HttpApiEndpoint.post("resetPassword", "/password-reset/confirm", {
      payload: ResetConfirm,
      success: noContent("The password is changed and every session of the user ended; no body"),
      error: Problem.responses()
    })
      .annotate(OpenApi.Summary, "Set a new password with a mailed reset code")
      .annotate(OpenApi.Description, "A wrong, expired or spent code: 400 VALIDATION_FAILED naming `code`. Verifies the e-mail address too."),
    HttpApiEndpoint.post("acceptInvitation", "/invitation/accept", {
      payload: AcceptInvitation,
      success: noContent("The invitee's password is set; sign in with it; no body"),
      error: Problem.responses()
    })
      .annotate(OpenApi.Summary, "Accept an invitation and set a password")
      .annotate(OpenApi.Description, "With the mailed invitation code (72 hours, 5 tries). A wrong code: 400 VALIDATION_FAILED naming `code`.")
  )
  .prefix("/api/v1.1/backoffice")
  .annotate(OpenApi.Title, "Back office: sign-in")
  .annotate(OpenApi.Description, "Signing in to a merchant's back office, password reset and invitations (no session needed).")
{}

const allowDefault = { allowDefaultPassword: true }

/** What a signed-in back-office user can do with its account and, for owners, its users. */
export class BackofficeApi extends HttpApiGroup.make("backoffice")
  .add(
    HttpApiEndpoint.post("logout", "/logout", {
      success: noContent("The session ended and its cookie is cleared; no body"),
      error: Problem.responses()
    }).annotate(Access, allowDefault).annotate(OpenApi.Summary, "Sign out"),
    HttpApiEndpoint.get("me", "/me", { success: User, error: Problem.responses() })
      .annotate(OpenApi.Summary, "The signed-in user"),
    HttpApiEndpoint.post("changePassword", "/password", {
      payload: PasswordChange,
      success: User,
      error: Problem.responses("INVALID_CREDENTIALS", "RATE_LIMITED")
    })
      .annotate(Access, allowDefault)
      .annotate(OpenApi.Summary, "Change the password")
      .annotate(
        OpenApi.Description,
        "The only call (with logout) open while the generated password is kept. A wrong `currentPassword`: 401 " +
          "INVALID_CREDENTIALS (the session stays), counted as a failed sign-in of the account (from the 6th in a " +
          "row, 429 RATE_LIMITED with `retry-after`, as at sign-in). Every other session of the user ends."
      ),
    HttpApiEndpoint.post("verifyEmail", "/verify-email", { payload: CodeBody, success: User, error: Problem.responses() })
      .annotate(OpenApi.Summary, "Verify the e-mail address with its 6-digit code")
      .annotate(
        OpenApi.Description,
        "The owner's first code is the `otpToken` of create. A code lives 15 minutes and allows 5 tries; a wrong, " +
          "expired or spent one is 400 VALIDATION_FAILED naming `code`."
      ),
    HttpApiEndpoint.post("resendVerification", "/verify-email/resend", {
      success: noContent("A new code is mailed (the old one no longer works); no body"),
      error: Problem.responses("MAIL_FAILED", "RATE_LIMITED")
    })
      .annotate(OpenApi.Summary, "Mail a new e-mail verification code")
      .annotate(OpenApi.Description, "At most one a minute: sooner is 429 RATE_LIMITED with `retry-after`."),
    HttpApiEndpoint.post("enrolTotp", "/totp", { success: TotpEnrolment, error: Problem.responses() })
      .annotate(OpenApi.Summary, "Start TOTP enrolment")
      .annotate(OpenApi.Description, "Sign-in asks for TOTP codes only once `POST totp/confirm` accepted a first code."),
    HttpApiEndpoint.post("confirmTotp", "/totp/confirm", { payload: CodeBody, success: User, error: Problem.responses() })
      .annotate(OpenApi.Summary, "Turn TOTP on with a first code from the app"),
    HttpApiEndpoint.post("removeTotp", "/totp/remove", {
      payload: PasswordBody,
      success: User,
      error: Problem.responses("INVALID_CREDENTIALS", "RATE_LIMITED")
    })
      .annotate(OpenApi.Summary, "Turn TOTP off (the password again)")
      .annotate(
        OpenApi.Description,
        "A wrong password: 401 INVALID_CREDENTIALS, counted as a failed sign-in of the account (from the 6th in a " +
          "row, 429 RATE_LIMITED with `retry-after`)."
      ),
    HttpApiEndpoint.get("listUsers", "/users", {
      query: { page: GamesQuery.page, limit: GamesQuery.limit },
      success: UserList,
      error: Problem.responses()
    })
      .annotate(Access, { permission: "users" })
      .annotate(OpenApi.Summary, "List the merchant's back-office users (owner)"),
    HttpApiEndpoint.post("inviteUser", "/users", {
      payload: Invite,
      success: User.pipe(HttpApiSchema.status(201)),
      error: Problem.responses("EMAIL_TAKEN", "MAIL_FAILED", "RATE_LIMITED")
    })
      .annotate(Access, { permission: "users" })
      .annotate(OpenApi.Summary, "Invite a user by e-mail (owner)")
      .annotate(
        OpenApi.Description,
        "Mails an invitation code (72 hours, 5 tries) with which the invitee sets a password " +
          "(`POST invitation/accept`). Inviting again someone who has not accepted mails a new code (at most one a " +
          "minute: 429 RATE_LIMITED); an e-mail that any other user or merchant has: 409 EMAIL_TAKEN."
      ),
    HttpApiEndpoint.delete("removeUser", "/users/:userId", {
      params: { userId: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 2_147_483_647 })) },
      success: noContent("The user is removed and its sessions ended; no body"),
      error: Problem.responses("USER_NOT_FOUND")
    })
      .annotate(Access, { permission: "users" })
      .annotate(OpenApi.Summary, "Remove a user (owner; never the owner)"),
    HttpApiEndpoint.get("audit", "/audit", {
      query: { page: GamesQuery.page, limit: GamesQuery.limit },
      success: AuditList,
      error: Problem.responses()
    })
      .annotate(Access, { permission: "audit" })
      .annotate(OpenApi.Summary, "Read the merchant's audit log (owner)")
      .annotate(
        OpenApi.Description,
        "Every change to the merchant, newest first, wherever it was made: the back office (the user's e-mail as " +
          "actor: password changes, TOTP on or off, users invited and removed), the admin API, the command line and " +
          "the operator's own `PUT /settings`. The same entries as the admin API's `GET /merchants/{id}/audit`. " + auditDepth
      )
  )
  .middleware(BackofficeAuth)
  .prefix("/api/v1.1/backoffice")
  .annotate(OpenApi.Title, "Back office")
  .annotate(
    OpenApi.Description,
    "A merchant's own staff (CONTRACT §9), signed in with the session cookie: the account (password, e-mail " +
      "verification, TOTP) and, for owners, the users. Roles: `owner` (everything), `developer` (settings, keys, " +
      "secrets, deliveries), `finance` (reports, rounds, revenue share), `support` (round and player look-up); a " +
      "role without the endpoint's permission is 403 FORBIDDEN."
  )
{}
