import { Schema } from "effect"
import type { MerchantId } from "./Merchant.ts"
import { isStorableText } from "./Validation.ts"
import { can, permissions, roles } from "./BackofficeRoles.ts"

/**
 * An address the back office mails to: stricter than a merchant's e-mail (any `@` and dot), an address an
 * SMTP server takes: a local part of RFC 5322 `atext` and dots, and a domain of letter-digit-hyphen labels.
 */
export const MailAddress = Schema.String.check(
  Schema.isMaxLength(254),
  isStorableText,
  Schema.isPattern(
    /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9-]{0,61}[A-Za-z0-9]$/u,
    { message: "must be an e-mail address (letters, digits and . _ % + - before the @; a domain such as example.com)" }
  )
)

/** The roles of a merchant's back-office users (CONTRACT §9). */
export const Role = Schema.Literals(roles)
export type Role = typeof Role.Type

/**
 * What a role may do: `owner` everything (the only one with users and the
 * audit log); `developer` settings, keys, secrets, deliveries; `finance`
 * reports, rounds, revenue share; `support` round and player look-up.
 * Endpoints name the permission they need (the table: BackofficeRoles.ts).
 */
export const Permission = Schema.Literals(permissions)
export type Permission = typeof Permission.Type

export { can }

/** A back-office user as the API shows it. */
export interface User {
  readonly id: number
  readonly merchantId: MerchantId
  readonly email: string
  readonly role: Role
  readonly isDefaultPassword: boolean
  readonly verifiedEmail: boolean
  readonly totpEnabled: boolean
  /** False until an invited user has set a password. */
  readonly hasPassword: boolean
  readonly companyName: string
}

/** A stored user with its password hash (absent for an invitation not yet accepted). */
export interface UserWithSecrets extends User {
  readonly passwordHash: string | undefined
  readonly accountStatus: string
}

/** One-time codes mailed to a user: e-mail verification, password reset, invitation. */
export type CodePurpose = "verify-email" | "password-reset" | "invitation"

/** How long a mailed code lives, in seconds, and how many tries it allows (CONTRACT §9: 15 min, 5). */
export const codeLifetimeSeconds: { readonly [P in CodePurpose]: number } = {
  "verify-email": 15 * 60,
  "password-reset": 15 * 60,
  invitation: 72 * 3600
}
export const codeTries = 5

/** A new code of the same purpose is mailed to a user at most once in this many seconds (no mail bombing). */
export const codeIntervalSeconds = 60

/** Failed sign-ins an account may make before each further one waits; the wait doubles up to {@link maxLoginDelaySeconds}. */
export const freeLoginFailures = 5
export const maxLoginDelaySeconds = 15 * 60

/** Seconds an account must wait after `failures` consecutive failed sign-ins (0: none). Never a permanent lock-out. */
export const loginDelaySeconds = (failures: number): number =>
  failures < freeLoginFailures ? 0 : Math.min(maxLoginDelaySeconds, 2 ** (failures - freeLoginFailures + 1))

/**
 * Failed sign-ins one client address may make, to any accounts (known or not), before each further sign-in from it
 * waits; the wait doubles as an account's does, up to {@link maxLoginDelaySeconds}, and is never a permanent lock-out.
 * More than an account's: the staff of an office may share one address.
 */
export const freeAddressLoginFailures = 20

/** Seconds a client address must wait after `failures` failed sign-ins from it (0: none). */
export const addressLoginDelaySeconds = (failures: number): number =>
  failures < freeAddressLoginFailures ? 0 : Math.min(maxLoginDelaySeconds, 2 ** (failures - freeAddressLoginFailures + 1))

/**
 * How long a device cookie (set by every successful sign-in, OWASP's "device cookies") lets its browser sign in to
 * its account without waiting for its address's failures: 180 days from the sign-in that set it. The server checks
 * the age too, so a cookie kept past its `Max-Age` does not count.
 */
export const deviceCookieMaxAgeSeconds = 180 * 86_400

/** Shortest and longest password accepted. */
export const minPasswordLength = 12
export const maxPasswordLength = 256

const normalise = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")

/**
 * Why a new password is refused, or undefined: at least 12 characters, and
 * not containing the account's e-mail (or its local part) or the company
 * name, compared without case, spaces or punctuation.
 */
export const passwordProblem = (password: string, email: string, companyName: string): string | undefined => {
  if (password.length < minPasswordLength) return `must be at least ${minPasswordLength} characters`
  if (password.length > maxPasswordLength) return `must be at most ${maxPasswordLength} characters`
  const plain = normalise(password)
  const local = normalise(email.split("@")[0] ?? "")
  if (local.length >= 3 && plain.includes(local)) return "must not contain the account's e-mail address"
  const company = normalise(companyName)
  if (company.length >= 3 && plain.includes(company)) return "must not contain the company name"
  return undefined
}

/** A failed sign-in: unknown e-mail, wrong password or wrong second factor, told apart for no one. */
export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()("InvalidCredentials", {}) {
  override get message(): string {
    return "wrong e-mail or password"
  }
}

/** The password is right and the account has TOTP on: the login must carry `totpCode`. */
export class TotpRequired extends Schema.TaggedError<TotpRequired>()("TotpRequired", {}) {
  override get message(): string {
    return "this account signs in with a second factor: send totpCode (the 6 digits of the authenticator app)"
  }
}

/** The account still has the generated password: only a password change is allowed. */
export class PasswordChangeRequired extends Schema.TaggedError<PasswordChangeRequired>()("PasswordChangeRequired", {}) {
  override get message(): string {
    return "change the generated password first (POST /api/v1.1/backoffice/password)"
  }
}
