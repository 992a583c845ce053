import { Effect, Option, type Redacted } from "effect"
import {
  addressLoginDelaySeconds,
  InvalidCredentials,
  loginDelaySeconds,
  PasswordChangeRequired,
  TotpRequired,
  type User,
  type UserWithSecrets
} from "../Backoffice.ts"
import { Forbidden, Unauthorized } from "../Auth.ts"
import { ipv6Groups, mappedIpv4 } from "../IpAddress.ts"
import { RateLimited } from "../RateLimit.ts"
import { BackofficeSecrets } from "../ports/BackofficeSecrets.ts"
import { BackofficeStore, type TakenTry } from "../ports/BackofficeStore.ts"

/** What a successful sign-in hands out: the session token (for the cookie only), its CSRF token and the user. */
export interface SignedIn {
  readonly token: Redacted.Redacted<string>
  readonly csrfToken: string
  readonly user: User
  /** The account's new device cookie (OWASP device cookies): for the cookie only. */
  readonly deviceCookie: string
}

/** The store key of an account's failed sign-ins: the e-mail, known or not, so both answer alike. */
const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`

/**
 * The store key of the failed sign-ins made with one device cookie: the cookie less its MAC (`<userId>.<issued>`),
 * so the store never holds what would pass for the cookie.
 */
const deviceKey = (cookie: string) => `device:${cookie.split(".").slice(0, 2).join(".").slice(0, 64)}`

/**
 * The part of a client address that one client holds: an IPv4 address whole, an IPv6 address's /64 (the network
 * an ISP or a cloud gives one customer, whose 2^64 addresses are one client's to pick from), an IPv4-mapped IPv6
 * address as its IPv4 address. Anything else (not an address) is kept as it is, at most 64 characters.
 */
export const addressGroup = (address: string): string => {
  const groups = ipv6Groups(address.trim())
  if (groups === undefined) return address.slice(0, 64)
  return mappedIpv4(groups) ?? `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`
}

/** The store key of a client address's failed sign-ins: its {@link addressGroup} (the address as the rate limiter sees it). */
const addressKey = (address: string) => `address:${addressGroup(address)}`

/** How many times a sign-in looks again when concurrent tries counted before it could (then 429, retry after 1 s). */
const contendedLooks = 3

/**
 * Takes a sign-in's try before its password is checked: waits (429) when `key` (the account's, or the device
 * cookie's) failed too often, or the client `address` did (when its wait applies); else counts the try as a failure
 * of both at once, each only if its count is still the one just checked. So a burst of concurrent wrong passwords
 * gets no more tries than the same tries one after the other: each sees those before it. (Checked, then counted
 * after the password check, a burst was all checked before any was counted.) A try that lost the race looks again,
 * {@link contendedLooks} times at most. What it answers is what a try that did not fail gives back.
 */
const takeTry = Effect.fnUntraced(function*(key: string, address?: { readonly key: string; readonly waits: boolean }) {
  const store = yield* BackofficeStore
  for (let look = 0; look < contendedLooks; look++) {
    const own = yield* store.loginFailures(key)
    const wait = loginDelaySeconds(own.failures) - own.secondsSinceLast
    if (wait > 0) return yield* new RateLimited({ retryAfterSeconds: Math.ceil(wait), subject: "account" })
    let fromTry: TakenTry | undefined
    if (address !== undefined) {
      const from = yield* store.loginFailures(address.key)
      const fromWait = address.waits ? addressLoginDelaySeconds(from.failures) - from.secondsSinceLast : 0
      if (fromWait > 0) return yield* new RateLimited({ retryAfterSeconds: Math.ceil(fromWait), subject: "address" })
      fromTry = Option.getOrUndefined(yield* store.takeLoginTry(address.key, from.failures))
      if (fromTry === undefined) continue
    }
    const ownTry = Option.getOrUndefined(yield* store.takeLoginTry(key, own.failures))
    if (ownTry !== undefined) return { own: ownTry, from: fromTry }
    if (fromTry !== undefined) yield* store.forgiveLoginFailure(fromTry)
  }
  return yield* new RateLimited({ retryAfterSeconds: 1, subject: "account" })
})

/**
 * Signs a user in (CONTRACT §9). An account that failed too often waits
 * (429 with `retry-after`, doubling from the 6th failure up to 15 min, and
 * never for good); so does a client address that failed too often, across
 * every account (from the 21st failure, {@link addressLoginDelaySeconds};
 * an IPv6 client's whole /64 counts as one address, {@link addressGroup}):
 * its count is not cleared by a success (one account of one's own must not
 * reset the guessing of others') but starts again after a day without
 * failures. A request carrying a valid device cookie of the account it signs
 * in to (set by an earlier sign-in of that account in that browser) waits
 * only for the failures made with that cookie: neither the account's wait
 * nor the address's applies, so nobody who signed in before is refused for
 * failures others made (CONTRACT §2); its failures count for the device and
 * the address.
 * An unknown e-mail costs a password check all the same, so it answers as a
 * wrong password does, in about the same time. An account with TOTP needs
 * `totpCode` once the password is right. A success hands out a new device
 * cookie for the account.
 */
export const signIn = Effect.fn("Backoffice.signIn")(function*(
  input: {
    readonly email: string
    readonly password: string
    readonly totpCode?: string | undefined
    readonly address: string
    /** The request's device cookie, if any (checked here, so any text will do). */
    readonly deviceCookie?: string | undefined
  }
) {
  const store = yield* BackofficeStore
  const secrets = yield* BackofficeSecrets
  const fromKey = addressKey(input.address)
  const user = Option.getOrUndefined(yield* store.userByEmail(input.email.trim()))
  const device = user !== undefined && input.deviceCookie !== undefined &&
      (yield* secrets.deviceCookieValid(input.deviceCookie, user.id))
    ? input.deviceCookie
    : undefined
  // With the account's device cookie the failures that count are that device's own (OWASP device cookies): what
  // others failed, on the account or from the address, never holds back a browser that signed in before.
  const key = device === undefined ? accountKey(input.email) : deviceKey(device)
  const taken = yield* takeTry(key, { key: fromKey, waits: device === undefined })
  // The try already counts as a failure, of the key and the address: one that did not fail gives it back.
  const forgiveAddress = taken.from === undefined ? Effect.void : store.forgiveLoginFailure(taken.from)
  const matches = yield* secrets.verifyPassword(input.password, user?.passwordHash)
  if (!matches || user === undefined || user.accountStatus === "closed") return yield* new InvalidCredentials()
  if (user.totpEnabled) {
    if (input.totpCode === undefined) {
      yield* Effect.andThen(store.forgiveLoginFailure(taken.own), forgiveAddress)
      return yield* new TotpRequired()
    }
    const secret = Option.getOrUndefined(yield* store.totp(user.id))
    if (secret === undefined || !(yield* secrets.totpValid(secret.secret, input.totpCode))) return yield* new InvalidCredentials()
  }
  // The address's count is not cleared by a success (one account of one's own must not reset the guessing of
  // others'): only this try is given back. The account's (or the device's) count is cleared.
  yield* forgiveAddress
  yield* store.clearLoginFailures(key)
  const session = yield* secrets.newSession
  yield* store.createSession(user.id, session.stored)
  const deviceCookie = yield* secrets.deviceCookieOf(user.id)
  return { token: session.value, csrfToken: secrets.csrfOf(session.value), user, deviceCookie } satisfies SignedIn
})

/**
 * Asks a signed-in user's password again before something sensitive (the
 * webhook secret's reveal, a password change, turning TOTP off): a wrong one
 * is 401 INVALID_CREDENTIALS counted as a failed sign-in of the account, and
 * an account that failed too often waits as at sign-in (429).
 */
export const recheckPassword = Effect.fn("Backoffice.recheckPassword")(function*(user: UserWithSecrets, password: string) {
  const store = yield* BackofficeStore
  const key = accountKey(user.email)
  yield* takeTry(key)
  if (!(yield* (yield* BackofficeSecrets).verifyPassword(password, user.passwordHash))) return yield* new InvalidCredentials()
  yield* store.clearLoginFailures(key)
})

/** The state of a request's session, for the back office's middleware. */
export interface SessionCheck {
  readonly token: Redacted.Redacted<string>
  readonly csrfToken: string | undefined
  /** Whether the request changes state (then it must carry the session's CSRF token). */
  readonly changes: boolean
  /** Whether the endpoint is open to an account that still has its generated password. */
  readonly allowDefaultPassword: boolean
}

/**
 * The user of a live session, with the session's stored id (the token's digest, computed once): 401 when there is no session, it expired or its merchant is closed,
 * 403 when a state-changing request lacks the session's CSRF token, 403
 * PASSWORD_CHANGE_REQUIRED while the generated password is kept (but for the
 * endpoints that change it or end the session).
 */
export const sessionUser = Effect.fn("Backoffice.sessionUser")(function*(check: SessionCheck) {
  const store = yield* BackofficeStore
  const secrets = yield* BackofficeSecrets
  const sessionId = secrets.sessionIdOf(check.token)
  const user: UserWithSecrets | undefined = Option.getOrUndefined(yield* store.session(sessionId))
  if (user === undefined || user.accountStatus === "closed") {
    return yield* new Unauthorized({ detail: "no back-office session, or it expired: sign in again" })
  }
  if (check.changes && !secrets.csrfMatches(check.token, check.csrfToken ?? "")) {
    return yield* new Forbidden({ detail: "a state-changing back-office call needs the x-csrf-token that login returned" })
  }
  if (user.isDefaultPassword && !check.allowDefaultPassword) return yield* new PasswordChangeRequired()
  return { ...user, sessionId }
})
