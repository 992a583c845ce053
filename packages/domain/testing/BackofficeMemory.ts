import { Effect, Layer, Option, Redacted } from "effect"
import type { CodePurpose, UserWithSecrets } from "../src/Backoffice.ts"
import { EmailTaken } from "../src/Merchant.ts"
import { offset } from "../src/Paging.ts"
import { BackofficeSecrets } from "../src/ports/BackofficeSecrets.ts"
import { BackofficeStore, type TotpSecret } from "../src/ports/BackofficeStore.ts"
import { type Mail, Mailer } from "../src/ports/Mailer.ts"

/** What the in-memory back office holds, to inspect in a test. */
export interface MemoryBackoffice {
  readonly users: Map<number, UserWithSecrets>
  readonly sessions: Map<string, number>
  readonly mails: Array<Mail>
  /** The codes by `<userId>:<purpose>`, with when each was stored (`at`, epoch ms). */
  readonly codes: Map<string, { hash: string; tries: number; expires: number; at: number }>
}

const publicOf = ({ passwordHash: _, accountStatus: __, ...user }: UserWithSecrets) => user

/**
 * The back office's ports in memory: the store (sessions never expire),
 * secrets whose "hashes" are `plain:<text>` and a TOTP that accepts
 * `000000` only, and a mailer that keeps every mail in `mails`.
 */
export const makeBackoffice = (initial: ReadonlyArray<UserWithSecrets> = []) => {
  const state: MemoryBackoffice = { users: new Map(initial.map((u) => [u.id, u])), sessions: new Map(), mails: [], codes: new Map() }
  const codes = state.codes
  const failures = new Map<string, { failures: number; at: number; serial?: number }>()
  let tries = 0
  const totps = new Map<number, TotpSecret>()
  let next = Math.max(0, ...state.users.keys()) + 1
  let tokens = 0
  const codeKey = (userId: number, purpose: CodePurpose) => `${userId}:${purpose}`
  const update = (id: number, change: Partial<UserWithSecrets>) =>
    Effect.sync(() => {
      const user = state.users.get(id)
      if (user !== undefined) state.users.set(id, { ...user, ...change })
    })
  const store = BackofficeStore.of({
    userByEmail: (email) =>
      Effect.sync(() => Option.fromUndefinedOr([...state.users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase()))),
    user: (id) => Effect.sync(() => Option.fromUndefinedOr(state.users.get(id))),
    setPassword: (userId, hash, keep) =>
      Effect.andThen(
        update(userId, { passwordHash: hash, isDefaultPassword: false, hasPassword: true }),
        Effect.sync(() => {
          for (const [id, owner] of state.sessions) if (owner === userId && id !== keep) state.sessions.delete(id)
        })
      ),
    setVerifiedEmail: (userId) => update(userId, { verifiedEmail: true }),
    listUsers: (merchantId, page) => Effect.sync(() => {
      const all = [...state.users.values()].filter((u) => u.merchantId === merchantId).map(publicOf)
      const start = offset(page)
      return { users: all.slice(start, start + page.limit), total: all.length }
    }),
    invite: (merchantId, email, role) =>
      Effect.suspend(() => {
        const taken = [...state.users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase())
        if (taken !== undefined && taken.merchantId === merchantId && !taken.hasPassword && taken.role !== "owner") {
          const again = { ...taken, role }
          state.users.set(again.id, again)
          return Effect.succeed(again)
        }
        if (taken !== undefined) return Effect.fail(new EmailTaken())
        const owner = [...state.users.values()].find((u) => u.merchantId === merchantId)
        const user: UserWithSecrets = {
          id: next++, merchantId, email, role, isDefaultPassword: false, verifiedEmail: false, totpEnabled: false,
          hasPassword: false, companyName: owner?.companyName ?? "", passwordHash: undefined, accountStatus: "active"
        }
        state.users.set(user.id, user)
        return Effect.succeed(user)
      }),
    removeUser: (merchantId, userId) =>
      Effect.sync(() => {
        const user = state.users.get(userId)
        if (user === undefined || user.merchantId !== merchantId || user.role === "owner") return Option.none()
        state.users.delete(userId)
        return Option.some(publicOf(user))
      }),
    putCode: (userId, purpose, hash, lifetimeSeconds, tries, intervalSeconds) =>
      Effect.sync(() => {
        const previous = codes.get(codeKey(userId, purpose))
        if (previous !== undefined && Date.now() - previous.at < intervalSeconds * 1000) return false
        codes.set(codeKey(userId, purpose), { hash, tries, expires: Date.now() + lifetimeSeconds * 1000, at: Date.now() })
        return true
      }),
    spendCodeTry: (userId, purpose) =>
      Effect.sync(() => {
        const code = codes.get(codeKey(userId, purpose))
        if (code === undefined || code.tries <= 0 || code.expires <= Date.now()) return Option.none()
        code.tries--
        return Option.some(code.hash)
      }),
    dropCode: (userId, purpose) => Effect.sync(() => void codes.delete(codeKey(userId, purpose))),
    loginFailures: (key) =>
      Effect.sync(() => {
        const entry = failures.get(key)
        return { failures: entry?.failures ?? 0, secondsSinceLast: entry === undefined ? 0 : (Date.now() - entry.at) / 1000 }
      }),
    // A try's `at` is its own serial number (two tries can share a millisecond); `before` the time it replaced.
    takeLoginTry: (key, seen) =>
      Effect.sync(() => {
        const entry = failures.get(key)
        if (entry !== undefined && entry.failures !== seen) return Option.none()
        const serial = ++tries
        failures.set(key, { failures: (entry?.failures ?? 0) + 1, at: Date.now(), serial })
        return Option.some({ key, at: String(serial), before: entry === undefined ? undefined : String(entry.at) })
      }),
    forgiveLoginFailure: (taken) =>
      Effect.sync(() => {
        const entry = failures.get(taken.key)
        if (entry === undefined) return
        const at = String(entry.serial) === taken.at ? Number(taken.before ?? entry.at - 86_400_000) : entry.at
        failures.set(taken.key, { ...entry, failures: Math.max(0, entry.failures - 1), at })
      }),
    clearLoginFailures: (key) => Effect.sync(() => void failures.delete(key)),
    createSession: (userId, sessionId) => Effect.sync(() => void state.sessions.set(sessionId, userId)),
    session: (sessionId) =>
      Effect.sync(() => {
        const userId = state.sessions.get(sessionId)
        return Option.fromUndefinedOr(userId === undefined ? undefined : state.users.get(userId))
      }),
    endSession: (sessionId) => Effect.sync(() => void state.sessions.delete(sessionId)),
    totp: (userId) => Effect.sync(() => Option.fromUndefinedOr(totps.get(userId))),
    setTotp: (userId, secret) => Effect.sync(() => void totps.set(userId, { secret, enabled: false })),
    enableTotp: (userId) =>
      Effect.andThen(
        Effect.sync(() => {
          const totp = totps.get(userId)
          if (totp !== undefined) totps.set(userId, { ...totp, enabled: true })
        }),
        update(userId, { totpEnabled: true })
      ),
    removeTotp: (userId) => Effect.andThen(Effect.sync(() => void totps.delete(userId)), update(userId, { totpEnabled: false }))
  })
  const secrets = BackofficeSecrets.of({
    hashPassword: (password) => Effect.succeed(`plain:${password}`),
    verifyPassword: (password, hash) => Effect.succeed(hash === `plain:${password}`),
    newCode: Effect.sync(() => ({ value: Redacted.make("123456"), stored: "plain:123456" })),
    newSession: Effect.sync(() => {
      const token = `session-${++tokens}`
      return { value: Redacted.make(token), stored: `id:${token}` }
    }),
    sessionIdOf: (token) => `id:${Redacted.value(token)}`,
    csrfOf: (token) => `csrf:${Redacted.value(token)}`,
    csrfMatches: (token, candidate) => candidate === `csrf:${Redacted.value(token)}`,
    deviceCookieOf: (userId) => Effect.succeed(`device:${userId}`),
    deviceCookieValid: (cookie, userId) => Effect.succeed(cookie === `device:${userId}`),
    newTotpSecret: Effect.succeed(Redacted.make("JBSWY3DPEHPK3PXP")),
    totpValid: (_secret, code) => Effect.succeed(code === "000000")
  })
  const mailer = Mailer.of({ send: (mail) => Effect.sync(() => void state.mails.push(mail)) })
  return {
    state,
    layer: Layer.mergeAll(
      Layer.succeed(BackofficeStore, store),
      Layer.succeed(BackofficeSecrets, secrets),
      Layer.succeed(Mailer, mailer)
    )
  }
}
