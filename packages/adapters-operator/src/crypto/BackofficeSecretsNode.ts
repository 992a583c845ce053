import { Clock, Effect, Layer, Redacted } from "effect"
import { BackofficeSecrets } from "@gateway/domain/ports/BackofficeSecrets"
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto"
import * as PasswordHash from "./PasswordHash.ts"
import * as Totp from "./Totp.ts"

/** A hash no password matches, checked against when there is no user, so that an unknown e-mail takes as long. */
const noUser = PasswordHash.hash(randomBytes(16).toString("base64url"))

const sessionIdOf = (token: Redacted.Redacted<string>) =>
  createHash("sha256").update(Redacted.value(token)).digest("base64url")
const csrfOf = (token: Redacted.Redacted<string>) =>
  createHmac("sha256", Redacted.value(token)).update("backoffice csrf").digest("base64url")

/**
 * The back office's secrets on `node:crypto`: scrypt password and code
 * hashes (as for merchants' passwords), session tokens of 32 random bytes
 * stored as their SHA-256, CSRF tokens derived from the session token by
 * HMAC, and TOTP per RFC 6238 (HMAC-SHA1, 6 digits, 30 s).
 */
export const layer = Layer.effect(
  BackofficeSecrets,
  Effect.map(Effect.cached(noUser), (dummy) =>
    BackofficeSecrets.of({
      hashPassword: PasswordHash.hash,
      verifyPassword: (password, hash) =>
        hash === undefined
          ? Effect.flatMap(dummy, (stored) => Effect.as(PasswordHash.verify(password, stored), false))
          : PasswordHash.verify(password, hash),
      newCode: Effect.suspend(() => {
        const code = randomInt(0, 1_000_000).toString().padStart(6, "0")
        return Effect.map(PasswordHash.hash(code), (stored) => ({ value: Redacted.make(code), stored }))
      }),
      newSession: Effect.sync(() => {
        const value = Redacted.make(randomBytes(32).toString("base64url"))
        return { value, stored: sessionIdOf(value) }
      }),
      sessionIdOf,
      csrfOf,
      csrfMatches: (token, candidate) => {
        const expected = Buffer.from(csrfOf(token))
        const given = Buffer.from(candidate)
        return given.length === expected.length && timingSafeEqual(given, expected)
      },
      newTotpSecret: Effect.sync(() => Redacted.make(Totp.newSecret())),
      totpValid: (secret, code) =>
        Effect.map(Clock.currentTimeMillis, (now) => Totp.verify(Redacted.value(secret), code, Math.floor(now / 1000)))
    }))
)
