import { Clock, Effect, Layer, Redacted } from "effect"
import { Backoffice } from "@gateway/domain"
import { BackofficeSecrets } from "@gateway/domain/ports/BackofficeSecrets"
import { createHash, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from "node:crypto"
import * as PasswordHash from "./PasswordHash.ts"
import * as Totp from "./Totp.ts"

const sessionIdOf = (token: Redacted.Redacted<string>) =>
  createHash("sha256").update(Redacted.value(token)).digest("base64url")
const csrfOf = (token: Redacted.Redacted<string>) =>
  createHmac("sha256", Redacted.value(token)).update("backoffice csrf").digest("base64url")

/** Whether two texts are the same, compared in constant time (for a secret's MAC). */
const sameText = (given: string, expected: string): boolean => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The key that signs device cookies, derived from a server secret (HKDF-SHA256), so it is used for nothing else. */
const deviceKeyOf = (secret: Redacted.Redacted<Buffer>) =>
  Buffer.from(hkdfSync("sha256", Redacted.value(secret), Buffer.alloc(0), "gateway backoffice device cookie v1", 32))

const deviceMac = (key: Buffer, userId: number, issuedAt: number) =>
  createHmac("sha256", key).update(`backoffice-device:${userId}:${issuedAt}`).digest()

/** `<userId>.<issued at, Unix seconds>.<HMAC-SHA256, base64url>`. */
const deviceCookieShape = /^([1-9][0-9]{0,14})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/

/** What the node secrets need: the server secrets device cookies are signed with (the first signs, every one verifies). */
export interface Options {
  readonly deviceCookieSecrets: readonly [Redacted.Redacted<Buffer>, ...ReadonlyArray<Redacted.Redacted<Buffer>>]
  /** scrypt's cost for the hashes made here (log2 N); PasswordHash.defaultCost when absent. */
  readonly passwordHashCost?: number
}

/**
 * The back office's secrets on `node:crypto`: scrypt password and code
 * hashes (as for merchants' passwords), session tokens of 32 random bytes
 * stored as their SHA-256, CSRF tokens derived from the session token by
 * HMAC, TOTP per RFC 6238 (HMAC-SHA1, 6 digits, 30 s), and device cookies
 * signed by HMAC-SHA256 with a key derived from the given server secrets
 * (`deviceCookieSecrets`: the first signs, all verify, for a rotation).
 */
export const layer = (options: Options) => {
  const deviceKeys = options.deviceCookieSecrets.map(deviceKeyOf)
  const cost = options.passwordHashCost ?? PasswordHash.defaultCost
  const hashOf = (secret: string) => PasswordHash.hash(secret, cost)
  // A hash no password matches, checked against when there is no user, so that an unknown e-mail takes as long.
  const noUser = hashOf(randomBytes(16).toString("base64url"))
  return Layer.effect(
    BackofficeSecrets,
    Effect.map(Effect.cached(noUser), (dummy) =>
      BackofficeSecrets.of({
        hashPassword: hashOf,
        verifyPassword: (password, hash) =>
          hash === undefined
            ? Effect.flatMap(dummy, (stored) => Effect.as(PasswordHash.verify(password, stored), false))
            : PasswordHash.verify(password, hash),
        newCode: Effect.suspend(() => {
          const code = randomInt(0, 1_000_000).toString().padStart(6, "0")
          return Effect.map(hashOf(code), (stored) => ({ value: Redacted.make(code), stored }))
        }),
        newSession: Effect.sync(() => {
          const value = Redacted.make(randomBytes(32).toString("base64url"))
          return { value, stored: sessionIdOf(value) }
        }),
        sessionIdOf,
        csrfOf,
        csrfMatches: (token, candidate) => sameText(candidate, csrfOf(token)),
        deviceCookieOf: (userId) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            const issuedAt = Math.floor(now / 1000)
            return `${userId}.${issuedAt}.${deviceMac(deviceKeys[0]!, userId, issuedAt).toString("base64url")}`
          }),
        deviceCookieValid: (cookie, userId) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            const parts = cookie.length <= 128 ? deviceCookieShape.exec(cookie) : null
            if (parts === null || Number(parts[1]) !== userId) return false
            const issuedAt = Number(parts[2])
            const age = Math.floor(now / 1000) - issuedAt
            if (age < -60 || age > Backoffice.deviceCookieMaxAgeSeconds) return false
            return deviceKeys.some((key) => sameText(parts[3]!, deviceMac(key, userId, issuedAt).toString("base64url")))
          }),
        newTotpSecret: Effect.sync(() => Redacted.make(Totp.newSecret())),
        totpValid: (secret, code) =>
          Effect.map(Clock.currentTimeMillis, (now) => Totp.verify(Redacted.value(secret), code, Math.floor(now / 1000)))
      }))
  )
}
