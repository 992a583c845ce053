import type { Effect, Redacted } from "effect"
import { Context } from "effect"

/** A secret to hand out once, and what may be stored of it. */
export interface Issued {
  readonly value: Redacted.Redacted<string>
  readonly stored: string
}

/** The back office's secrets: slow password hashes, mailed codes, session tokens, TOTP (RFC 6238). */
export class BackofficeSecrets extends Context.Service<BackofficeSecrets, {
  hashPassword(password: string): Effect.Effect<string>
  /** Whether the password matches; against no hash it takes as long and is false. */
  verifyPassword(password: string, hash: string | undefined): Effect.Effect<boolean>
  /** A 6-digit code and its slow hash. */
  readonly newCode: Effect.Effect<Issued>
  /** A session token and the id it is stored under (a digest). */
  readonly newSession: Effect.Effect<Issued>
  sessionIdOf(token: Redacted.Redacted<string>): string
  /** The CSRF token of a session token: derived, so nothing more is stored. */
  csrfOf(token: Redacted.Redacted<string>): string
  /** Whether `candidate` is the CSRF token of `token`, compared in constant time. */
  csrfMatches(token: Redacted.Redacted<string>, candidate: string): boolean
  /**
   * A device cookie for the user (OWASP's device cookies): the user's id and the time now, signed with a server-side
   * key, so the server can check it without storing anything or trusting the client.
   */
  deviceCookieOf(userId: number): Effect.Effect<string>
  /** Whether `cookie` is a device cookie this server issued for `userId` at most `Backoffice.deviceCookieMaxAgeSeconds` ago. */
  deviceCookieValid(cookie: string, userId: number): Effect.Effect<boolean>
  /** A new TOTP secret, base32. */
  readonly newTotpSecret: Effect.Effect<Redacted.Redacted<string>>
  /** Whether `code` is the TOTP of `secret` now, one 30 s step either side allowed. */
  totpValid(secret: Redacted.Redacted<string>, code: string): Effect.Effect<boolean>
}>()("@gateway/domain/ports/BackofficeSecrets") {}
