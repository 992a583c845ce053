import type { Effect, Option, Redacted } from "effect"
import { Context } from "effect"
import type { CodePurpose, Role, User, UserWithSecrets } from "../Backoffice.ts"
import type { EmailTaken, MerchantId } from "../Merchant.ts"
import type { PageRequest } from "../Paging.ts"

/** A stored TOTP secret (base32), and whether the user has confirmed it. */
export interface TotpSecret {
  readonly secret: Redacted.Redacted<string>
  readonly enabled: boolean
}

/**
 * A sign-in's try counted before its check ({@link BackofficeStore} `takeLoginTry`): what the store needs to give
 * it back, with the time of the last failure as it was before it (`at` is the try's own, `before` the one it
 * replaced, none for a count it started), in the store's own notation.
 */
export interface TakenTry {
  readonly key: string
  readonly at: string
  readonly before: string | undefined
}

/**
 * The back office's users, sessions, mailed codes and sign-in failures,
 * shared by every instance. Session ids and codes arrive already hashed;
 * sessions expire after an idle time and an absolute time fixed by the adapter.
 */
export class BackofficeStore extends Context.Service<BackofficeStore, {
  userByEmail(email: string): Effect.Effect<Option.Option<UserWithSecrets>>
  user(id: number): Effect.Effect<Option.Option<UserWithSecrets>>
  /** Sets the password; clears `isDefaultPassword` and ends the user's other sessions (all when `keepSession` is undefined). */
  setPassword(userId: number, hash: string, keepSession: string | undefined): Effect.Effect<void>
  setVerifiedEmail(userId: number): Effect.Effect<void>
  /** A page of the merchant's users in id order, and how many it has in all. */
  listUsers(merchantId: MerchantId, page: PageRequest): Effect.Effect<{ readonly users: ReadonlyArray<User>; readonly total: number }>
  /**
   * A user without a password, to accept an invitation, in one statement; an invitee of the same merchant who
   * has not accepted yet is given `role` (the new invitation's role wins). EmailTaken when any other user has
   * that e-mail.
   */
  invite(merchantId: MerchantId, email: string, role: Role): Effect.Effect<UserWithSecrets, EmailTaken>
  /** Removes a non-owner user of the merchant (its sessions end with it); the removed user, none when there is none. */
  removeUser(merchantId: MerchantId, userId: number): Effect.Effect<Option.Option<User>>

  /**
   * Replaces the user's code of `purpose` (a hash), valid for `lifetimeSeconds` and `tries` tries; false (and
   * nothing stored) when the one it would replace was stored less than `intervalSeconds` ago.
   */
  putCode(
    userId: number, purpose: CodePurpose, hash: string, lifetimeSeconds: number, tries: number, intervalSeconds: number
  ): Effect.Effect<boolean>
  /** Spends one try of the code: its hash while it is unexpired and had a try left, else none. */
  spendCodeTry(userId: number, purpose: CodePurpose): Effect.Effect<Option.Option<string>>
  dropCode(userId: number, purpose: CodePurpose): Effect.Effect<void>

  /** Consecutive failed sign-ins of `key` and the seconds since the last one. */
  loginFailures(key: string): Effect.Effect<{ readonly failures: number; readonly secondsSinceLast: number }>
  /**
   * Counts a try of `key` as a failed sign-in before its password is checked, provided the failures of `key` are
   * still `seen` (or were cleared since: then it is the first): none, and nothing counted, when another try counted
   * one since. A day after the last failure, the count starts again from this one. Sign-ins take their try first,
   * so that concurrent ones each see the tries before them.
   */
  takeLoginTry(key: string, seen: number): Effect.Effect<Option.Option<TakenTry>>
  /**
   * Gives back a try taken by {@link takeLoginTry} that did not fail: one failure fewer (never below none), and the
   * last failure's time as it was before the try, unless another try has counted since.
   */
  forgiveLoginFailure(taken: TakenTry): Effect.Effect<void>
  clearLoginFailures(key: string): Effect.Effect<void>

  createSession(userId: number, sessionId: string): Effect.Effect<void>
  /** The user of a live session, marking it used now; none when unknown, idle too long or too old. */
  session(sessionId: string): Effect.Effect<Option.Option<UserWithSecrets>>
  endSession(sessionId: string): Effect.Effect<void>

  totp(userId: number): Effect.Effect<Option.Option<TotpSecret>>
  /** Stores a new, not yet confirmed secret (replacing an unconfirmed one). */
  setTotp(userId: number, secret: Redacted.Redacted<string>): Effect.Effect<void>
  enableTotp(userId: number): Effect.Effect<void>
  removeTotp(userId: number): Effect.Effect<void>
}>()("@gateway/domain/ports/BackofficeStore") {}
