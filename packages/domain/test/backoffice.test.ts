import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Redacted, Schema } from "effect"
import { can, loginDelaySeconds, MailAddress, maxLoginDelaySeconds, Permission, passwordProblem, Role, type UserWithSecrets } from "../src/Backoffice.ts"
import { MerchantId } from "../src/Merchant.ts"
import { BackofficeStore } from "../src/ports/BackofficeStore.ts"
import { changePassword, mailCode, verifyEmail } from "../src/usecases/BackofficeAccount.ts"
import { addressGroup, sessionUser, signIn } from "../src/usecases/BackofficeSignIn.ts"
import { removeTotp } from "../src/usecases/BackofficeTotp.ts"
import { auditLog, makeAuditLog, makeBackoffice } from "../testing/index.ts"
import { backofficeActor } from "../src/Audit.ts"
import { AuditLog } from "../src/ports/AuditLog.ts"

const owner: UserWithSecrets = {
  id: 1, merchantId: MerchantId.make(7), email: "ops@addis.example", role: "owner", isDefaultPassword: true,
  verifiedEmail: false, totpEnabled: false, hasPassword: true, companyName: "Addis Bet",
  passwordHash: "plain:generated-password-1", accountStatus: "active"
}

const failureTag = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? Exit.findErrorOption(exit).pipe((o) => o._tag === "Some" ? o.value._tag : "defect") : "success"

describe("back-office rules", () => {
  it("refuses passwords shorter than 12 characters or containing the e-mail or the company name", () => {
    assert.include(passwordProblem("eleven char", owner.email, owner.companyName), "12")
    assert.include(passwordProblem("my Ops-password 2026", owner.email, owner.companyName), "e-mail")
    assert.include(passwordProblem("best of addis_bet!!", owner.email, owner.companyName), "company")
    assert.isUndefined(passwordProblem("correct horse battery staple", owner.email, owner.companyName))
  })

  it("mails only addresses an SMTP server takes", () => {
    const ok = Schema.is(MailAddress)
    assert.deepStrictEqual(
      ["ops@addis.example", "a.b+c_d%e@mail.example-1.com", "xSS@o%bp}|D}lN.t", "a@b", "a..b@x.example", "a@-x.example", "a @x.example"].map(ok),
      [true, true, false, false, false, false, false]
    )
  })

  it.prop("a password holding the company name is refused whatever surrounds it", [Schema.String, Schema.String], ([before, after]) => {
    assert.isDefined(passwordProblem(`${before}Addis Bet${after}0123456789`, owner.email, owner.companyName))
  })

  it.prop("slows failing accounts down more with each failure, from the 5th, to at most 15 minutes", [Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10_000 }))], ([n]) => {
    const delay = loginDelaySeconds(n)
    assert.isTrue(delay >= 0 && delay <= maxLoginDelaySeconds && loginDelaySeconds(n + 1) >= delay)
    assert.strictEqual(delay === 0, n < 5)
  })

  it("gives each role exactly the permissions of CONTRACT §9", () => {
    const granted = Object.fromEntries(Role.literals.map((role) => [role, Permission.literals.filter((p) => can(role, p))]))
    assert.deepStrictEqual(granted, {
      owner: [...Permission.literals],
      developer: ["settings", "keys", "secrets", "deliveries"],
      finance: ["reports", "rounds", "revenueShare"],
      support: ["rounds", "players"]
    })
  })
})

describe("back-office use cases on the in-memory ports", () => {
  it.effect("sign in: the same failure for an unknown e-mail and a wrong password; a session only for the right one", () => {
    const { layer, state } = makeBackoffice([owner])
    return Effect.gen(function*() {
      const wrong = yield* Effect.exit(signIn({ email: owner.email, password: "guess", address: "192.0.2.1" }))
      const unknown = yield* Effect.exit(signIn({ email: "x@addis.example", password: "generated-password-1", address: "192.0.2.1" }))
      assert.deepStrictEqual([failureTag(wrong), failureTag(unknown)], ["InvalidCredentials", "InvalidCredentials"])
      const signed = yield* signIn({ email: "OPS@addis.example", password: "generated-password-1", address: "192.0.2.1" })
      const check = { token: signed.token, csrfToken: signed.csrfToken, changes: true, allowDefaultPassword: false }
      assert.strictEqual(failureTag(yield* Effect.exit(sessionUser({ ...check, csrfToken: undefined }))), "Forbidden")
      assert.strictEqual(failureTag(yield* Effect.exit(sessionUser(check))), "PasswordChangeRequired")
      assert.strictEqual((yield* sessionUser({ ...check, allowDefaultPassword: true })).email, owner.email)
      const forged = { ...check, token: Redacted.make("forged") }
      assert.strictEqual(failureTag(yield* Effect.exit(sessionUser(forged))), "Unauthorized")
      state.users.set(owner.id, { ...owner, accountStatus: "closed" }) // the merchant closed: its sessions end
      assert.strictEqual(failureTag(yield* Effect.exit(sessionUser({ ...check, allowDefaultPassword: true }))), "Unauthorized")
    }).pipe(Effect.provide(layer))
  })

  it.effect("sign in: a device cookie of the account waits only for its own failures, not the address's or the account's", () => {
    const { layer } = makeBackoffice([owner])
    return Effect.gen(function*() {
      const right = { email: owner.email, password: "generated-password-1", address: "192.0.2.9" }
      const { deviceCookie } = yield* signIn(right)
      for (let i = 0; i < 20; i++) yield* Effect.exit(signIn({ email: `guess${i}@addis.example`, password: "guess", address: right.address }))
      assert.strictEqual(failureTag(yield* Effect.exit(signIn(right))), "RateLimited")
      assert.strictEqual(failureTag(yield* Effect.exit(signIn({ ...right, deviceCookie: "device:2" }))), "RateLimited")
      assert.strictEqual((yield* signIn({ ...right, deviceCookie })).deviceCookie, deviceCookie)
      // Someone elsewhere guesses the account's password: the account waits, but not the owner's own browser
      const elsewhere = { ...right, address: "198.51.100.4" }
      for (let i = 0; i < 6; i++) yield* Effect.exit(signIn({ ...elsewhere, password: "guess" }))
      assert.strictEqual(failureTag(yield* Effect.exit(signIn(elsewhere))), "RateLimited")
      assert.strictEqual((yield* signIn({ ...right, deviceCookie })).user.id, owner.id)
      // Failures made with the cookie itself: that device waits as an account would
      for (let i = 0; i < 5; i++) {
        assert.strictEqual(failureTag(yield* Effect.exit(signIn({ ...right, password: "guess", deviceCookie }))), "InvalidCredentials")
      }
      assert.strictEqual(failureTag(yield* Effect.exit(signIn({ ...right, deviceCookie }))), "RateLimited")
    }).pipe(Effect.provide(layer))
  })

  it.effect("sign in: a try counts before its password is checked, and a success gives it back to the address", () => {
    const { layer } = makeBackoffice([owner])
    return Effect.gen(function*() {
      const right = { email: owner.email, password: "generated-password-1", address: "192.0.2.44" }
      for (let i = 0; i < 30; i++) assert.strictEqual((yield* signIn(right)).user.id, owner.id)
      for (let i = 0; i < 19; i++) yield* Effect.exit(signIn({ email: `guess${i}@addis.example`, password: "guess", address: right.address }))
      // 19 failures from the address: the two sign-ins after them are the 20th and 21st tries, but not failures
      assert.strictEqual((yield* signIn(right)).user.id, owner.id)
      assert.strictEqual((yield* signIn(right)).user.id, owner.id)
      assert.strictEqual(failureTag(yield* Effect.exit(signIn({ ...right, password: "guess" }))), "InvalidCredentials")
      assert.strictEqual(failureTag(yield* Effect.exit(signIn(right))), "RateLimited")
    }).pipe(Effect.provide(layer))
  })

  it.effect("sign in: an IPv6 client's whole /64 is one address, so hopping within it does not escape the address's wait", () => {
    const { layer } = makeBackoffice([owner])
    return Effect.gen(function*() {
      for (let i = 0; i < 20; i++) {
        yield* Effect.exit(signIn({ email: `guess${i}@addis.example`, password: "guess", address: `2001:db8:7:1::${(i + 1).toString(16)}` }))
      }
      const right = { email: owner.email, password: "generated-password-1" }
      assert.strictEqual(failureTag(yield* Effect.exit(signIn({ ...right, address: "2001:0db8:0007:0001:ffff::1" }))), "RateLimited")
      assert.strictEqual((yield* signIn({ ...right, address: "2001:db8:7:2::1" })).user.id, owner.id)
    }).pipe(Effect.provide(layer))
  })

  it("groups client addresses as one client holds them: IPv4 whole, IPv6 by /64, IPv4-mapped as IPv4", () => {
    assert.deepStrictEqual(
      ["192.0.2.1", "2001:db8:7:1::5", "2001:0DB8:0007:0001:aaaa:bbbb:cccc:dddd", "::1", "fe80::1%eth0", "::ffff:192.0.2.1", "2001:db8::", "unknown", "1:2:3::4::5"]
        .map(addressGroup),
      ["192.0.2.1", "2001:db8:7:1::/64", "2001:db8:7:1::/64", "0:0:0:0::/64", "fe80:0:0:0::/64", "192.0.2.1", "2001:db8:0:0::/64", "unknown", "1:2:3::4::5"]
    )
  })

  it.effect("a password change needs the current password and passes the rules; a code allows 5 tries", () => {
    const { layer, state } = makeBackoffice([owner])
    const audit = makeAuditLog()
    return Effect.gen(function*() {
      const actor = backofficeActor(owner.email, "192.0.2.1")
      const bad = yield* Effect.exit(changePassword(owner, "not it", "correct horse battery staple", "s", actor))
      const weak = yield* Effect.exit(changePassword(owner, "generated-password-1", "Addis Bet 2026!!", "s", actor))
      assert.deepStrictEqual([failureTag(bad), failureTag(weak)], ["InvalidCredentials", "ValidationFailed"])
      yield* changePassword(owner, "generated-password-1", "correct horse battery staple", "s", actor)
      assert.strictEqual(state.users.get(1)?.isDefaultPassword, false)
      assert.deepStrictEqual(audit.entries().map((e) => [e.action, e.actor, e.after]), [
        ["user.password", owner.email, { user: owner.email, password: "changed" }]
      ])

      yield* mailCode(owner, "verify-email")
      assert.match(state.mails.at(-1)?.text ?? "", /123456/)
      for (let i = 0; i < 5; i++) assert.strictEqual(failureTag(yield* Effect.exit(verifyEmail(owner, "000000"))), "ValidationFailed")
      assert.strictEqual(failureTag(yield* Effect.exit(verifyEmail(owner, "123456"))), "ValidationFailed")
      assert.strictEqual(failureTag(yield* Effect.exit(mailCode(owner, "verify-email"))), "RateLimited") // one a minute
      for (const code of state.codes.values()) code.at -= 60_000
      yield* mailCode(owner, "verify-email")
      yield* verifyEmail(owner, "123456")
      assert.isTrue((yield* (yield* BackofficeStore).user(1)).pipe((u) => u._tag === "Some" && u.value.verifiedEmail))
    }).pipe(Effect.provide(layer), Effect.provideService(AuditLog, audit.service))
  })

  it.effect("a wrong current password at a password change counts as a failed sign-in: the 6th try waits, as sign-in does", () => {
    const { layer } = makeBackoffice([owner])
    return Effect.gen(function*() {
      const actor = backofficeActor(owner.email, "192.0.2.1")
      for (let i = 0; i < 5; i++) {
        assert.strictEqual(failureTag(yield* Effect.exit(changePassword(owner, `guess ${i}`, "correct horse battery staple", "s", actor))), "InvalidCredentials")
      }
      assert.strictEqual(failureTag(yield* Effect.exit(changePassword(owner, "generated-password-1", "correct horse battery staple", "s", actor))), "RateLimited")
      assert.strictEqual(failureTag(yield* Effect.exit(signIn({ email: owner.email, password: "generated-password-1", address: "192.0.2.1" }))), "RateLimited")
    }).pipe(Effect.provide(layer), Effect.provide(auditLog))
  })

  it.effect("a wrong password to turn TOTP off counts as a failed sign-in too", () => {
    const { layer } = makeBackoffice([{ ...owner, totpEnabled: true }])
    return Effect.gen(function*() {
      const actor = backofficeActor(owner.email, "192.0.2.1")
      for (let i = 0; i < 5; i++) assert.strictEqual(failureTag(yield* Effect.exit(removeTotp(owner, `guess ${i}`, actor))), "InvalidCredentials")
      assert.strictEqual(failureTag(yield* Effect.exit(removeTotp(owner, "generated-password-1", actor))), "RateLimited")
    }).pipe(Effect.provide(layer), Effect.provide(auditLog))
  })
})
