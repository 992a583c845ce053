import { adminToken, call } from "@gateway/adapters-http/testing"
import { type Mailbox, startMailbox } from "@gateway/adapters-operator/testing/Mailbox"
import { Effect, Exit, Scope } from "effect"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { Webhook } from "standardwebhooks"
import { afterAll, assert, beforeAll, describe, expect, it } from "vitest"
import { type Gateway, gateway } from "../testing/Gateway.ts"
import { axeViolations, launchChromium, resultsDir } from "./Browser.ts"
import { startWallet } from "./Wallet.ts"

const scope = Effect.runSync(Scope.make())
const email = "owner@pages.example"
const ownerPassword = "tall ships and ledgers"
const financePassword = "columns of figures 9"
let gw: Gateway
let mailbox: Mailbox
let operator: Awaited<ReturnType<typeof startWallet>>
let browser: Awaited<ReturnType<typeof launchChromium>>
let page: Page
let merchant: { readonly id: number; readonly password: string; readonly encryptionKey: string }
/** Every webhook the operator received, with which of the known secrets verify its signature. */
const secrets: Array<string> = []
const pageErrors: Array<string> = []
const verified: Array<{ readonly type: string; readonly by: ReadonlyArray<number> }> = []

beforeAll(async () => {
  mailbox = await startMailbox()
  operator = await startWallet((received, message) => {
    const headers = Object.fromEntries(Object.entries(received.headers).map(([k, v]) => [k, String(v)]))
    const by = secrets.flatMap((secret, i) => {
      try {
        new Webhook(secret).verify(received.body, headers)
        return [i]
      } catch {
        return []
      }
    })
    verified.push({ type: message.type, by })
    return by.length === 0 ? { status: 401, body: { error: "bad signature" } } : { status: 200, body: { balance: "1000.00", seen: message.type } }
  })
  gw = await Effect.runPromise(Scope.provide(scope)(gateway({ SMTP_URL: mailbox.url, WEBHOOK_RETRY_SCHEDULE: "0.2,0.2" })))
  const created = await call(`${gw.url}/api/v1.1/operator-api/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${await adminToken(gw.authSecret)}` },
    json: { countryCodes: ["ET"], companyName: "Pages Bet", email, providerId: 1 }
  })
  assert.strictEqual(created.status, 201, created.text)
  merchant = created.body
  secrets.push(merchant.encryptionKey)
  browser = await launchChromium({ width: 1280, height: 900 })
  page = await browser.context.newPage()
  page.setDefaultTimeout(10_000)
  page.on("pageerror", (error) => pageErrors.push(error.message))
  page.on("dialog", (dialog) => void dialog.accept())
})
afterAll(async () => {
  await browser?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await operator?.close()
  await mailbox?.close()
})

const shot = (name: string) => page.screenshot({ path: join(resultsDir, `backoffice-${name}.png`), fullPage: true })
const open = async (path: string) => {
  await page.goto(`${gw.url}/backoffice#${path}`)
  await page.locator("h1").first().waitFor()
}
const navTo = (name: string) => page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name, exact: true }).click()
const signIn = async (who: string, password: string) => {
  await open("/signin")
  await page.getByLabel("E-mail address").fill(who)
  await page.getByLabel("Password").fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
}
const signOut = () => page.getByRole("button", { name: "Sign out" }).click()
/** Waits for the page whose title (its h1) is `name`. */
const title = (name: string) => page.getByRole("heading", { level: 1, name, exact: true }).waitFor()
const navLinks = () => page.getByRole("navigation", { name: "Pages" }).getByRole("link").allInnerTexts()

describe("the back office in Chromium, a new merchant end to end", () => {
  it("serves the app under a strict CSP that nothing may frame", async () => {
    const answer = await fetch(`${gw.url}/backoffice`)
    expect(answer.status).toBe(200)
    const csp = answer.headers.get("content-security-policy") ?? ""
    expect(csp).toMatch(/script-src 'nonce-[^']+'(;|$)/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(await answer.text()).toContain("<script nonce=")
  })

  it("takes the owner from the generated password through the forced change and the mailed code", async () => {
    await signIn(email, "not the password at all")
    await page.locator("#signin-err", { hasText: "do not match an account" }).waitFor()
    await signIn(email, merchant.password)
    await title("Change your password")
    expect(await page.getByRole("navigation", { name: "Pages" }).isHidden()).toBe(true)
    await page.getByLabel("Current password").fill(merchant.password)
    await page.getByLabel("New password").fill("pages bet 2026 ok") // contains the company name
    await page.getByRole("button", { name: "Change the password" }).click()
    await page.locator("#password-newPassword-err", { hasText: "newPassword" }).waitFor()
    expect(await page.locator("#password-newPassword").getAttribute("aria-invalid")).toBe("true")
    await page.getByLabel("New password").fill(ownerPassword)
    await page.getByRole("button", { name: "Change the password" }).click()
    await title("Verify your e-mail address")
    await shot("verify")
    expect(await axeViolations(page)).toEqual([])

    const seen = mailbox.mails.length
    await page.getByRole("button", { name: "Mail me a new code" }).click()
    const code = await mailbox.code(email, "verification", seen)
    await page.getByLabel("Code from the mail (6 digits)").fill(code)
    await page.getByRole("button", { name: "Verify" }).click()
    await title("Today")
    expect(await navLinks()).toEqual(
      ["Today", "Find a round", "Reports", "Settings", "RTP per game", "API keys", "Webhook secrets", "Webhook deliveries", "Users", "Audit log", "Your account"]
    )
  })

  it("invites a finance user, who sees the reports but not the settings", async () => {
    await navTo("Users")
    await page.getByLabel("E-mail address").fill("fin@pages.example")
    await page.getByLabel("Role").selectOption("finance")
    const seen = mailbox.mails.length
    await page.getByRole("button", { name: "Send the invitation" }).click()
    await page.getByRole("cell", { name: "fin@pages.example", exact: true }).waitFor()
    const code = await mailbox.code("fin@pages.example", "invited", seen)
    await signOut()
    await title("Sign in")

    await open("/accept")
    await page.getByLabel("E-mail address").fill("fin@pages.example")
    await page.getByLabel("Code from the invitation mail (6 digits)").fill(code)
    await page.getByLabel("New password").fill(financePassword)
    await page.getByRole("button", { name: "Set my password" }).click()
    await page.getByRole("status").filter({ hasText: "Your password is set" }).waitFor()
    await signIn("fin@pages.example", financePassword)
    await title("Today")
    expect(await navLinks()).toEqual(["Today", "Find a round", "Reports", "Your account"])
    await navTo("Reports")
    await page.getByRole("button", { name: "Show the report" }).click()
    await page.getByRole("table", { name: /GGR in ETB/ }).waitFor()
    await open("/settings")
    await page.getByText("Your role does not include this page.").waitFor()
    await shot("finance")
    await signOut()
  })
})
