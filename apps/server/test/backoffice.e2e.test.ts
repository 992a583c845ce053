import { adminToken, type Answer, call } from "@gateway/adapters-http/testing"
import { Totp } from "@gateway/adapters-operator"
import { type Mailbox, startMailbox } from "@gateway/adapters-operator/testing/Mailbox"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
let gw: Gateway
let mailbox: Mailbox
let db: pg.Client
let bo: string
/** The owner's session, from the second test on. */
let owner: Session

beforeAll(async () => {
  mailbox = await startMailbox()
  const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedMigratedDatabaseUrl)))
  gw = await spawnGateway({
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    SMTP_URL: mailbox.url,
    TRUST_PROXY: "true"
  })
  bo = `${gw.url}/api/v1.1/backoffice`
  db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await gw?.stop("SIGKILL")
  await mailbox?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** A browser's view of one session: its cookie and CSRF token. */
interface Session {
  readonly cookie: string
  readonly csrf: string
}

const cookieOf = (answer: Answer) => (answer.headers.get("set-cookie") ?? "").split(";")[0] ?? ""

const login = async (email: string, password: string, totpCode?: string) => {
  const answer = await call(`${bo}/login`, { method: "POST", json: { email, password, ...(totpCode === undefined ? {} : { totpCode }) } })
  return { answer, session: { cookie: cookieOf(answer), csrf: String(answer.body?.csrfToken) } satisfies Session }
}

/** The device cookie an answer sets (its whole `Set-Cookie` line), if any. */
const deviceSetCookie = (answer: Answer) => answer.headers.getSetCookie().find((line) => line.startsWith("gateway_backoffice_device="))

/** The `name=value` of the device cookie an answer sets, to send back as a browser would. */
const deviceOf = (answer: Answer) => (deviceSetCookie(answer) ?? "").split(";")[0] ?? ""

const as = (session: Session, csrf = true) => ({ cookie: session.cookie, ...(csrf ? { "x-csrf-token": session.csrf } : {}) })

const createMerchant = async (email: string, companyName: string) => {
  const created = await call(`${gw.url}/api/v1.1/operator-api/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${await adminToken(gw.authSecret)}` },
    json: { countryCodes: ["ET"], companyName, email, providerId: 1 }
  })
  expect(created.status, created.text).toBe(201)
  return created.body as { id: number; password: string; otpToken: string }
}

const newPassword = "correct horse battery staple"

describe("the merchant back office, served by the real server process", () => {
  it("signs the owner in with create's password, then allows nothing but a password change", async () => {
    const merchant = await createMerchant("owner@addis.example", "Addis Bet")
    const wrong = await login("owner@addis.example", "not the password")
    const unknown = await login("nobody@addis.example", "not the password")
    expect([wrong.answer.status, unknown.answer.status]).toEqual([401, 401])
    expect(unknown.answer.body).toEqual(wrong.answer.body)
    expect(wrong.answer.body).toMatchObject({ code: "INVALID_CREDENTIALS" })
    expect(wrong.answer.headers.get("set-cookie")).toBeNull()

    const { answer, session } = await login("OWNER@addis.example", merchant.password)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.body.user).toMatchObject({ email: "owner@addis.example", role: "owner", isDefaultPassword: true, verifiedEmail: false })
    const cookie = answer.headers.get("set-cookie") ?? ""
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    expect(cookie).toMatch(/Path=\/api\/v1\.1\/backoffice/)
    expect(cookie).not.toMatch(/Secure/) // plain http, no PUBLIC_BASE_URL https, no trusted proxy

    for (const [method, path, json] of [["GET", "me", undefined], ["POST", "verify-email", { code: merchant.otpToken }], ["GET", "users", undefined]] as const) {
      const refused = await call(`${bo}/${path}`, { method, headers: as(session), ...(json === undefined ? {} : { json }) })
      expect([path, refused.status, refused.body?.code]).toEqual([path, 403, "PASSWORD_CHANGE_REQUIRED"])
    }

    const noCsrf = await call(`${bo}/password`, {
      method: "POST", headers: as(session, false), json: { currentPassword: merchant.password, newPassword }
    })
    expect([noCsrf.status, noCsrf.body.code]).toEqual([403, "FORBIDDEN"])
    for (const weak of ["short-one", "My ADDIS-bet password"]) {
      const refused = await call(`${bo}/password`, { method: "POST", headers: as(session), json: { currentPassword: merchant.password, newPassword: weak } })
      expect([refused.status, refused.body.code, refused.body.detail]).toEqual([400, "VALIDATION_FAILED", expect.stringContaining("newPassword")])
    }
    const changed = await call(`${bo}/password`, { method: "POST", headers: as(session), json: { currentPassword: merchant.password, newPassword } })
    expect(changed.status, changed.text).toBe(200)
    expect(changed.body).toMatchObject({ isDefaultPassword: false })

    const verify = await call(`${bo}/verify-email`, { method: "POST", headers: as(session), json: { code: merchant.otpToken } })
    expect(verify.status, verify.text).toBe(200)
    expect(verify.body).toMatchObject({ verifiedEmail: true })
    const admin = await call(`${gw.url}/api/v1.1/operator-api/merchants/${merchant.id}`, {
      headers: { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
    })
    expect(admin.body).toMatchObject({ isDefaultPassword: false, verifiedEmail: true })
  })

  it("ends sessions on logout, on expiry, and without a cookie answers 401", async () => {
    const { session } = await login("owner@addis.example", newPassword)
    owner = session
    expect((await call(`${bo}/me`, { headers: as(session) })).status).toBe(200)
    expect((await call(`${bo}/me`)).status).toBe(401)
    expect((await call(`${bo}/me`, { headers: { cookie: "gateway_backoffice=forged" } })).body.code).toBe("UNAUTHORIZED")

    const live = (await db.query("SELECT id FROM backoffice_sessions")).rows.map((row) => row.id)
    await db.query("UPDATE backoffice_sessions SET last_seen_at = now() - interval '31 minutes'")
    expect((await call(`${bo}/me`, { headers: as(session) })).status).toBe(401)
    await db.query("UPDATE backoffice_sessions SET last_seen_at = now(), created_at = now() - interval '13 hours'")
    expect((await call(`${bo}/me`, { headers: as(session) })).status).toBe(401)
    await db.query("UPDATE backoffice_sessions SET created_at = now()")
    expect((await call(`${bo}/me`, { headers: as(session) })).status).toBe(200)
    expect(live.every((id) => !session.cookie.includes(id))).toBe(true) // stored as a digest, never the cookie

    const { session: other } = await login("owner@addis.example", newPassword)
    expect((await call(`${bo}/logout`, { method: "POST", headers: as(other, false) })).status).toBe(403)
    const out = await call(`${bo}/logout`, { method: "POST", headers: as(other) })
    expect(out.status).toBe(204)
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/)
    expect((await call(`${bo}/me`, { headers: as(other) })).status).toBe(401)
    expect((await call(`${bo}/me`, { headers: as(session) })).status).toBe(200)
  })

  it("lets the owner invite a user by mail, and keeps each role to its permissions", async () => {
    const invited = await call(`${bo}/users`, { method: "POST", headers: as(owner), json: { email: "fin@addis.example", role: "finance" } })
    expect(invited.status, invited.text).toBe(201)
    expect(invited.body).toMatchObject({ email: "fin@addis.example", role: "finance", invitationPending: true })
    const taken = await call(`${bo}/users`, { method: "POST", headers: as(owner), json: { email: "OWNER@addis.example", role: "support" } })
    expect([taken.status, taken.body.code]).toEqual([409, "EMAIL_TAKEN"])

    await mailbox.code("fin@addis.example", "invited")
    const invite = () => call(`${bo}/users`, { method: "POST", headers: as(owner), json: { email: "fin@addis.example", role: "finance" } })
    const soon = await invite() // not accepted yet: a new code replaces the first, but not within a minute
    expect([soon.status, soon.body.code, soon.headers.get("retry-after")]).toEqual([429, "RATE_LIMITED", "60"])
    await db.query("UPDATE backoffice_codes SET created_at = now() - interval '61 seconds'")
    const seen = mailbox.mails.length
    const again = await invite()
    expect(again.status, again.text).toBe(201)
    const code = await mailbox.code("fin@addis.example", "invited", seen)
    const accepted = await call(`${bo}/invitation/accept`, { method: "POST", json: { email: "fin@addis.example", code, password: "ledger lines 2026" } })
    expect(accepted.status, accepted.text).toBe(204)

    const { answer, session: finance } = await login("fin@addis.example", "ledger lines 2026")
    expect(answer.body.user).toMatchObject({ role: "finance", isDefaultPassword: false, verifiedEmail: true })
    const forbidden = await call(`${bo}/users`, { headers: as(finance) })
    expect([forbidden.status, forbidden.body.code]).toEqual([403, "FORBIDDEN"])
    expect((await call(`${bo}/audit`, { headers: as(finance) })).status, "the audit log is the owner's").toBe(403)
    const listed = await call(`${bo}/users`, { headers: as(owner) })
    expect(listed.body.data.map((u: { email: string }) => u.email)).toEqual(["owner@addis.example", "fin@addis.example"])
    expect(listed.body.meta).toMatchObject({ totalElements: 2, currentPage: 1 })

    const removed = await call(`${bo}/users/${answer.body.user.id}`, { method: "DELETE", headers: as(owner) })
    expect(removed.status).toBe(204)
    expect((await call(`${bo}/me`, { headers: as(finance) })).status).toBe(401)

    // Each change is in the audit log, by the owner's e-mail from its address; passwords never
    const audit = await call(`${bo}/audit?limit=50`, { headers: as(owner) })
    expect(audit.status, audit.text).toBe(200)
    const entries = audit.body.data.map((e: { action: string; actor: string; address: string | null; before: unknown; after: unknown }) =>
      [e.action, e.actor, e.address === null, e.before, e.after])
    expect(entries).toEqual(expect.arrayContaining([
      ["user.remove", "owner@addis.example", false, { user: "fin@addis.example", role: "finance" }, null],
      ["user.invite", "owner@addis.example", false, null, { user: "fin@addis.example", role: "finance" }],
      ["user.password", "owner@addis.example", false, null, { user: "owner@addis.example", password: "changed" }],
      ["user.password", "fin@addis.example", false, null, { user: "fin@addis.example", password: "set", invitation: "accepted" }]
    ]))
    expect(audit.text).not.toContain("ledger lines 2026")
  })

  it("resets a forgotten password with a mailed code, and slows down an account that keeps failing", async () => {
    const unknown = await call(`${bo}/password-reset`, { method: "POST", json: { email: "nobody@addis.example" } })
    const known = await call(`${bo}/password-reset`, { method: "POST", json: { email: "owner@addis.example" } })
    expect([unknown.status, known.status]).toEqual([204, 204])
    const code = await mailbox.code("owner@addis.example", "reset")
    const reset = await call(`${bo}/password-reset/confirm`, {
      method: "POST", json: { email: "owner@addis.example", code, newPassword: "a new day, a new secret" }
    })
    expect(reset.status, reset.text).toBe(204)
    const again = await call(`${bo}/password-reset/confirm`, {
      method: "POST", json: { email: "owner@addis.example", code, newPassword: "and yet another one" }
    })
    expect(again.status).toBe(400)

    // Four failures as if made just now, then a fifth for real: the sixth try must wait, whatever its password.
    await db.query("INSERT INTO backoffice_login_failures VALUES ('account:owner@addis.example', 4, now())")
    expect((await login("owner@addis.example", "guess number 5")).answer.status).toBe(401)
    const slowed = await login("owner@addis.example", "a new day, a new secret")
    expect([slowed.answer.status, slowed.answer.body.code]).toEqual([429, "RATE_LIMITED"])
    expect(Number(slowed.answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    await db.query("UPDATE backoffice_login_failures SET last_failed_at = now() - interval '3 seconds'")
    const signed = await login("owner@addis.example", "a new day, a new secret")
    expect(signed.answer.status).toBe(200)

    // The reset is in the audit log, by the user from its address; the password never
    const audit = await call(`${bo}/audit?limit=50`, { headers: as(signed.session) })
    const resets = audit.body.data.filter((e: { after: { by?: string } | null }) => e.after?.by === "reset code")
    expect(resets.map((e: { action: string; actor: string; address: string | null; before: unknown; after: unknown }) =>
      [e.action, e.actor, e.address === null, e.before, e.after])).toEqual([
      ["user.password", "owner@addis.example", false, null, { user: "owner@addis.example", password: "changed", by: "reset code" }]
    ])
    expect(audit.text).not.toContain("a new day, a new secret")
  })

  it("counts a burst of concurrent wrong passwords as the same tries one after the other: no more than five are checked", async () => {
    // Twelve wrong passwords for one account at once, each from another address (so that no address's count
    // interferes): each try is counted before its password is checked, so the sixth and later wait (429) however
    // close together they come. (Checked first and counted after the check, the whole burst was checked.)
    const tries = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      call(`${bo}/login`, {
        method: "POST",
        headers: { "x-forwarded-for": `198.18.0.${i + 1}` },
        json: { email: "burst@addis.example", password: `guess ${i}` }
      })))
    const checked = tries.filter((t) => t.status === 401)
    const waited = tries.filter((t) => t.status === 429)
    expect(checked.length + waited.length, tries.map((t) => `${t.status} ${t.text}`).join("\n")).toBe(12)
    expect(checked.length).toBeGreaterThanOrEqual(1)
    expect(checked.length).toBeLessThanOrEqual(5)
    expect(checked.every((t) => t.body.code === "INVALID_CREDENTIALS") && waited.every((t) => t.body.code === "RATE_LIMITED")).toBe(true)
    // Every checked try is counted once, none that waited
    const { rows } = await db.query("SELECT failures FROM backoffice_login_failures WHERE key = 'account:burst@addis.example'")
    expect(rows[0]?.failures).toBe(checked.length)
    const addresses = await db.query("SELECT sum(failures)::int AS failures FROM backoffice_login_failures WHERE key LIKE 'address:198.18.0.%'")
    expect(addresses.rows[0]?.failures).toBe(checked.length)
  })

  it("counts a wrong current password at a password change as a failed sign-in: a session cannot guess it faster", async () => {
    const created = await createMerchant("guard@lalibela.example", "Lalibela Games")
    const { answer, session } = await login("guard@lalibela.example", created.password)
    expect(answer.status, answer.text).toBe(200)
    const change = (currentPassword: string) =>
      call(`${bo}/password`, { method: "POST", headers: as(session), json: { currentPassword, newPassword: "an entirely fresh secret" } })
    for (let i = 0; i < 5; i++) expect((await change(`guess number ${i}`)).body.code).toBe("INVALID_CREDENTIALS")
    const slowed = await change(created.password)
    expect([slowed.status, slowed.body.code]).toEqual([429, "RATE_LIMITED"])
    expect(Number(slowed.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    // The same count as the sign-in's: the account waits there too
    expect((await login("guard@lalibela.example", created.password)).answer.status).toBe(429)
  })

  it("slows down an address that fails to sign in to many accounts, and no other address", async () => {
    const attempt = (email: string, password: string, address: string, cookie?: string) =>
      call(`${bo}/login`, {
        method: "POST",
        headers: { "x-forwarded-for": address, ...(cookie === undefined ? {} : { cookie }) },
        json: { email, password }
      })
    // The owner signed in from the office before the guessing starts: this browser now holds a device cookie of the account
    const before = await attempt("owner@addis.example", "a new day, a new secret", "203.0.113.7")
    expect(before.status, before.text).toBe(200)
    const device = deviceOf(before)
    expect(deviceSetCookie(before)).toMatch(/HttpOnly/)
    expect(deviceSetCookie(before)).toMatch(/SameSite=Strict/)
    expect(deviceSetCookie(before)).toMatch(/Path=\/api\/v1\.1\/backoffice\/login(;|$)/)
    expect(deviceSetCookie(before)).toMatch(/Max-Age=15552000/) // 180 days
    expect(deviceSetCookie(before)).not.toMatch(/Secure/) // as the session cookie: plain http, no https proxy
    expect(cookieOf(before)).toMatch(/^gateway_backoffice=/) // the session cookie comes first, as before
    // Another merchant's owner signed in elsewhere: a valid device cookie, but of another account
    const other = await createMerchant("owner@harar.example", "Harar Play")
    const otherSignIn = await attempt("owner@harar.example", other.password, "198.51.100.9")
    expect(otherSignIn.status, otherSignIn.text).toBe(200)
    const otherDevice = deviceOf(otherSignIn)
    expect(otherDevice).toMatch(/^gateway_backoffice_device=./)

    // Twenty failures from one address, each to another account: none of the accounts failed often enough to wait
    for (let i = 0; i < 20; i++) {
      expect((await attempt(`guess${i}@addis.example`, "a guessed password", "203.0.113.7")).status).toBe(401)
    }
    const slowed = await attempt("owner@addis.example", "a new day, a new secret", "203.0.113.7")
    expect([slowed.status, slowed.body.code]).toEqual([429, "RATE_LIMITED"])
    expect(Number(slowed.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect(slowed.headers.get("set-cookie")).toBeNull()
    // The browser that signed in before is not held back by others' failures at its address (CONTRACT §2)
    const known = await attempt("owner@addis.example", "a new day, a new secret", "203.0.113.7", device)
    expect(known.status, known.text).toBe(200)
    expect(deviceOf(known)).toMatch(/^gateway_backoffice_device=./)
    // ... but another account's device cookie, or a forged one, does not spare the wait
    const [name, value] = [device.slice(0, device.indexOf("=") + 1), device.slice(device.indexOf("=") + 1)]
    const mac = value.lastIndexOf(".") + 1
    const forged = name + value.slice(0, mac) + (value[mac] === "A" ? "B" : "A") + value.slice(mac + 1)
    for (const [what, cookie] of [["another account's", otherDevice], ["forged", forged]] as const) {
      const refused = await attempt("owner@addis.example", "a new day, a new secret", "203.0.113.7", cookie)
      expect([what, refused.status, refused.body.code]).toEqual([what, 429, "RATE_LIMITED"])
    }
    const relabelled = name + String(otherSignIn.body.user.id) + value.slice(value.indexOf("."))
    for (const [what, cookie] of [["the first owner's", device], ["the first owner's relabelled", relabelled]] as const) {
      const refused = await attempt("owner@harar.example", other.password, "203.0.113.7", cookie)
      expect([what, refused.status, refused.body.code]).toEqual([what, 429, "RATE_LIMITED"])
    }
    expect((await attempt("owner@harar.example", other.password, "203.0.113.7", otherDevice)).status, "its own cookie").toBe(200)
    expect((await attempt("owner@addis.example", "a new day, a new secret", "198.51.100.4")).status, "another address").toBe(200)
    // Not for good: once the wait is over the address signs in, a success does not clear its count, and the next failure waits longer
    await db.query("UPDATE backoffice_login_failures SET last_failed_at = now() - interval '3 seconds' WHERE key = 'address:203.0.113.7'")
    expect((await attempt("owner@addis.example", "a new day, a new secret", "203.0.113.7")).status).toBe(200)
    expect((await attempt("guess20@addis.example", "a guessed password", "203.0.113.7")).status).toBe(401)
    const longer = await attempt("guess21@addis.example", "a guessed password", "203.0.113.7")
    expect([longer.status, Number(longer.headers.get("retry-after"))]).toEqual([429, 4])
  })

  it("asks for a TOTP code (RFC 6238) at sign-in once the owner has turned it on", async () => {
    const { session } = await login("owner@addis.example", "a new day, a new secret")
    expect((await call(`${bo}/me`, { headers: as(owner) })).status).toBe(401) // the reset ended the other sessions
    const enrolled = await call(`${bo}/totp`, { method: "POST", headers: as(session) })
    expect(enrolled.status, enrolled.text).toBe(200)
    expect(enrolled.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\//)
    const key = Totp.fromBase32(enrolled.body.secret) ?? Buffer.alloc(0)
    const now = () => Math.floor(Date.now() / 1000)
    const wrong = Totp.totp(key, now() + 300)
    expect((await call(`${bo}/totp/confirm`, { method: "POST", headers: as(session), json: { code: wrong } })).status).toBe(400)
    const confirmed = await call(`${bo}/totp/confirm`, { method: "POST", headers: as(session), json: { code: Totp.totp(key, now()) } })
    expect(confirmed.body).toMatchObject({ totpEnabled: true })

    const withoutCode = await login("owner@addis.example", "a new day, a new secret")
    expect([withoutCode.answer.status, withoutCode.answer.body.code]).toEqual([401, "TOTP_REQUIRED"])
    expect(withoutCode.answer.headers.get("set-cookie"), "no device cookie before the second factor").toBeNull()
    const signed = await login("owner@addis.example", "a new day, a new secret", Totp.totp(key, now()))
    expect(signed.answer.status, signed.answer.text).toBe(200)
    expect(deviceOf(signed.answer)).toMatch(/^gateway_backoffice_device=./)
  })
})
