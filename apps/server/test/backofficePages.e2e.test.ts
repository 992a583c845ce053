import { adminToken, call } from "@gateway/adapters-http/testing"
import { Totp } from "@gateway/adapters-operator"
import { type Mailbox, startMailbox } from "@gateway/adapters-operator/testing/Mailbox"
import { Effect, Exit, Scope } from "effect"
import { readFileSync } from "node:fs"
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
let operatorDown = false
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
    if (operatorDown) return { status: 503, body: { error: "down for maintenance" } }
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
  // A busy CI machine (2 cores, three test files at once) has taken more than 10 s to show a page.
  page.setDefaultTimeout(20_000)
  page.on("pageerror", (error) => pageErrors.push(error.message))
  page.on("dialog", (dialog) => void dialog.accept())
})
/** Runs one step of the clean-up, saying so if it has not finished after 20 s (a run once timed out there, unexplained). */
const cleanUp = async (what: string, run: () => Promise<unknown> | undefined) => {
  const slow = setTimeout(() => console.error(`clean-up: ${what} has not finished after 20 s`), 20_000)
  try {
    await run()
  } finally {
    clearTimeout(slow)
  }
}
afterAll(async () => {
  await cleanUp("closing Chromium", () => browser?.close())
  await cleanUp("stopping the gateway", () => Effect.runPromise(Scope.close(scope, Exit.void)))
  await cleanUp("stopping the operator", () => operator?.close())
  await cleanUp("stopping the mailbox", () => mailbox?.close())
})

const shot = (name: string) => page.screenshot({ path: join(resultsDir, `backoffice-${name}.png`), fullPage: true })
const open = async (path: string) => {
  const url = `${gw.url}/backoffice#${path}`
  const current = page.url()
  if (current.startsWith(`${gw.url}/backoffice#`) && current !== url) {
    // Only the hash changes: the app routes in its `hashchange` handler, after `goto` has returned, and until then
    // the h1 (and menu) of the page before are still there. Change the hash and wait for that handler to have run.
    await page.evaluate(`new Promise((resolve) => {
      addEventListener("hashchange", () => setTimeout(resolve), { once: true })
      location.hash = ${JSON.stringify(path)}
    })`)
  } else {
    await page.goto(url)
  }
  await page.locator("h1").first().waitFor()
}
const navTo = (name: string) => page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name, exact: true }).click()
const signIn = async (who: string, password: string) => {
  await open("/signin")
  await page.getByLabel("E-mail address").fill(who)
  await page.getByLabel("Password").fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
}
const signOut = async () => {
  await page.getByRole("button", { name: "Sign out" }).click()
  await page.locator("#nav").waitFor({ state: "hidden" })
}
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
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: width === 360 ? 740 : 900 })
      expect(await axeViolations(page), `the forced change at ${width} px`).toEqual([])
    }
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
    await page.locator("#accept .ok", { hasText: "Your password is set" }).waitFor()
    // Keyboard only: the page's heading has the focus, Tab leads to the fields, Enter signs in
    await open("/signin")
    await page.locator("h1:focus").waitFor()
    await page.keyboard.press("Tab")
    await page.keyboard.type("fin@pages.example")
    await page.keyboard.press("Tab")
    await page.keyboard.type(financePassword)
    await page.keyboard.press("Enter")
    await title("Today")
    expect(await navLinks()).toEqual(["Today", "Find a round", "Reports", "Your account"])
    await navTo("Reports")
    await page.getByRole("button", { name: "Show the report" }).click()
    await page.getByRole("table", { name: /GGR in ETB/ }).waitFor()
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download as CSV" }).click()])
    expect(download.suggestedFilename()).toMatch(/^ggr-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/)
    expect(readFileSync(await download.path(), "utf8").split(/\r?\n/)[0]).toMatch(/ggr/i)
    await page.getByRole("button", { name: "Revenue share for this period" }).click()
    await page.getByRole("table", { name: /Revenue share in ETB/ }).waitFor()
    await open("/settings")
    await page.getByText("Your role does not include this page.").waitFor()
    await shot("finance")
    await signOut()
  })

  it("lets the owner set the webhook URL with a preview of the branding and the RTP reviewed, and ping the operator", async () => {
    await signIn(email, ownerPassword)
    await title("Today")
    await navTo("Settings")
    await page.getByLabel("Wallet webhook URL").fill(`${operator.url}/wallet`)
    await page.getByLabel("Details URL", { exact: true }).fill(`${operator.url}/details`)
    await page.getByLabel("Separate URLs for debits, credits and refunds").check()
    await page.getByLabel("Refund URL").fill(`${operator.url}/refunds`)
    await page.getByLabel("Shop details URL").fill(`${operator.url}/shop`)
    await page.getByLabel("Logo", { exact: true }).fill(`${gw.url}/static/games/lotto.svg`)
    await page.getByLabel("Hide the player's balance").check()
    const preview = page.getByRole("figure", { name: "Preview of the game page" })
    expect(await preview.getByRole("img", { name: "Your logo" }).getAttribute("src")).toBe(`${gw.url}/static/games/lotto.svg`)
    expect(await preview.getByText("Balance").isHidden()).toBe(true)
    await page.getByLabel("Smallest stake").fill("5")
    await page.getByLabel("Largest stake").fill("2")
    await page.getByRole("button", { name: "Save the settings" }).click()
    await page.locator("#settings .err", { hasText: /Stake/ }).first().waitFor()
    expect(await page.locator("[aria-invalid=true]").count()).toBeGreaterThan(0)
    await page.getByLabel("Largest stake").fill("500")
    await page.getByRole("button", { name: "Save the settings" }).click()
    await page.locator("#settings .ok", { hasText: "Saved." }).waitFor()
    await shot("settings")
    // Today is left before its figures come back (held 1 s here): what it draws then never lands on Settings.
    const slowSummary = "**/api/v1.1/backoffice/summary**"
    await page.route(slowSummary, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000))
      await route.continue()
    })
    await navTo("Today")
    await navTo("Settings")
    expect(await page.getByLabel("Separate URLs for debits, credits and refunds").isChecked()).toBe(true)
    expect(await page.getByLabel("Refund URL").inputValue()).toBe(`${operator.url}/refunds`)
    expect(await page.getByLabel("Shop details URL").inputValue()).toBe(`${operator.url}/shop`)
    await page.waitForLoadState("networkidle")
    await page.waitForTimeout(1500)
    expect(await page.getByRole("heading", { name: "Today (UTC)" }).count(), "the dashboard drew over Settings").toBe(0)
    await page.unroute(slowSummary)

    await navTo("RTP per game")
    await page.getByLabel("Odd Even: RTP in %").fill("96")
    await page.getByRole("button", { name: "Review the changes" }).click()
    expect(await page.locator("#rtp-review li").allInnerTexts()).toEqual(["Odd Even: 97.50 % → 96.00 %"])
    await page.getByRole("button", { name: "Save these changes" }).click()
    await page.locator("#rtp .ok", { hasText: "Saved: the new RTP" }).waitFor()

    await navTo("Webhook deliveries")
    await page.getByRole("button", { name: "Send a test ping" }).click()
    await page.locator("#ping-result", { hasText: "Delivered: your server answered 200" }).waitFor()
    expect(await page.locator("#ping-result pre").innerText()).toContain("webhook.test")

    // A ping the operator refuses fails after its retries; redelivered once the operator is back, it is delivered
    operatorDown = true
    await page.getByRole("button", { name: "Send a test ping" }).click()
    await page.locator("#ping-result", { hasText: "Not delivered" }).waitFor()
    await page.getByLabel("Status").selectOption("failed")
    for (let tries = 0; (await page.locator("#delivery-list tbody tr").count()) === 0; tries++) {
      if (tries === 50) throw new Error("the refused ping never failed")
      await page.waitForTimeout(200)
      await page.getByRole("button", { name: "Show" }).click()
    }
    operatorDown = false
    await page.locator("#delivery-list tbody a").first().click()
    await page.getByRole("heading", { name: /^Attempt 3/ }).waitFor()
    expect(await page.locator("pre.raw").last().innerText()).toMatch(/^503\n[\s\S]*down for maintenance/)
    await page.getByRole("button", { name: "Redeliver" }).click()
    for (let tries = 0; !(await page.locator(".facts", { hasText: "delivered" }).isVisible()); tries++) {
      if (tries === 50) throw new Error("the redelivered ping was never delivered")
      await page.waitForTimeout(200)
      await page.reload()
    }
  })

  let roundId = ""
  it("issues a key whose secret is shown once, and a real round played with it is found with its proof", async () => {
    await navTo("API keys")
    await page.getByRole("button", { name: "Issue a key" }).click()
    const key = await page.locator("#new-key").innerText()
    expect(key).toMatch(/^sv_live\./)
    await page.getByRole("button", { name: "I have copied it" }).click()
    await page.getByRole("cell", { name: "never" }).waitFor()
    expect(await page.content()).not.toContain(key)

    const api = `${gw.url}/api/v1.1`
    const launched = await call(`${api}/operator-api/games/generate-launch-url?gameId=odd-even&playerId=p-7&sessionId=s-7&mode=real`, {
      headers: { "sv-api-key": key }
    })
    expect(launched.status, launched.text).toBe(200)
    const token = new URL(launched.body.url).searchParams.get("token")
    const opened = await call(`${api}/game-api/sessions`, { method: "POST", json: { token } })
    expect(opened.status, opened.text).toBe(201)
    const round = await call(`${api}/game-api/rounds`, {
      method: "POST", headers: { authorization: `Bearer ${opened.body.sessionToken}` }, json: { stake: "10.00", selection: "odd" }
    })
    expect(round.status, round.text).toBe(200)
    roundId = String(round.body.roundId)

    await navTo("Find a round")
    await page.getByLabel("Id").fill(roundId)
    await page.getByRole("button", { name: "Find" }).click()
    await page.getByRole("heading", { name: `Round ${roundId}` }).waitFor()
    await page.getByText("Server seed hash").waitFor()
    expect(await page.getByRole("link", { name: /proof/ }).getAttribute("href")).toMatch(new RegExp(`/rounds/${roundId}\\?sig=`))
    await page.getByLabel("Look up by").selectOption("playerId")
    await page.getByLabel("Id").fill("p-7")
    await page.getByRole("button", { name: "Find" }).click()
    await page.getByRole("heading", { name: `Round ${roundId}` }).waitFor()
    await page.getByLabel("Id").fill("nobody-here")
    await page.getByRole("button", { name: "Find" }).click()
    await page.locator("#lookup-value-err", { hasText: "No round found" }).waitFor()
    // The player's rounds of other days: a week that ended yesterday holds none of today's.
    const dayOf = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)
    await page.getByLabel("Id").fill("p-7")
    await page.getByLabel("A player's rounds from").fill(dayOf(8))
    await page.getByLabel("To (included)").fill(dayOf(1))
    await page.getByRole("button", { name: "Find" }).click()
    await page.locator("#lookup-value-err", { hasText: "No round found" }).waitFor()
  })

  it("shows the round played today in the figures and in both charts of the period, by day and by game", async () => {
    await navTo("Today")
    await title("Today")
    const byDay = page.getByRole("img", { name: /^GGR by day: \d+ groups$/ })
    const byGame = page.getByRole("img", { name: /^Bets and wins by game: \d+ groups$/ })
    await page.locator("#charts figure, #main .err:not(:empty)").first().waitFor()
    expect(await page.locator("#main [role=alert]:not(:empty), #main .err:not(:empty)").allInnerTexts()).toEqual([])
    await byDay.waitFor()
    await byGame.waitFor()
    expect(await page.locator("#today .tile").first().innerText()).toMatch(/Rounds\s+1$/)
    // The numbers beside the charts (in closed <details>, so read as text): the round's stake, and GGR = bets − wins
    const today = new Date().toISOString().slice(0, 10)
    const cells = (table: string, key: string) =>
      page.locator(`[aria-label="${table}"] tbody tr`).filter({ hasText: key }).locator("td").allTextContents()
    const dayRow = await cells("By day", today)
    const gameRow = await cells("By game", "odd-even")
    const [, rounds, bets, wins, ggr] = dayRow.map((cell) => cell.replace("−", "-"))
    expect([rounds, bets]).toEqual(["1", "10.00"])
    expect(Number(ggr)).toBeCloseTo(10 - Number(wins), 2)
    expect(gameRow.slice(1)).toEqual(dayRow.slice(1))
    // The bars drawn: today's GGR in the chart by day, the game's bets and wins in the chart by game
    expect(await byDay.locator("title").allTextContents()).toContain(`${today} GGR: ${Number(ggr).toFixed(2)}`)
    expect(await byDay.locator("text").allTextContents()).toContain(today.slice(5))
    expect(await byGame.locator("title").allTextContents()).toEqual(
      expect.arrayContaining([`odd-even Bets: 10.00`, `odd-even Wins: ${Number(wins).toFixed(2)}`])
    )
    await shot("dashboard-round")
  })

  it("reveals the webhook secret after the password, and rotates it while the operator verifies both signatures", async () => {
    await navTo("Webhook secrets")
    await page.getByLabel("Your password").fill("not my password at all")
    await page.getByRole("button", { name: "Show the webhook secret" }).click()
    await page.locator("#reveal-password-err", { hasText: "That is not your password." }).waitFor()
    await page.getByLabel("Your password").fill(ownerPassword)
    await page.getByRole("button", { name: "Show the webhook secret" }).click()
    expect(await page.locator("#revealed code").innerText()).toBe(merchant.encryptionKey)

    await page.getByLabel("What to rotate").selectOption("encryptionKey")
    await page.getByLabel("Overlap in minutes").fill("60")
    await page.getByRole("button", { name: "Rotate" }).click()
    const fresh = await page.locator("#new-secret").innerText()
    expect(fresh).toMatch(/^whsec_/)
    expect(fresh).not.toBe(merchant.encryptionKey)
    secrets.push(fresh)

    await navTo("Webhook deliveries")
    const seen = verified.length
    await page.getByRole("button", { name: "Send a test ping" }).click()
    await page.locator("#ping-result", { hasText: "Delivered" }).waitFor()
    expect(verified.slice(seen)).toEqual([{ type: "webhook.test", by: [0, 1] }])

    await page.getByRole("link").filter({ hasText: /:/ }).first().click()
    await page.getByRole("heading", { name: /^Attempt 1/ }).waitFor()
    const raw = await page.locator("pre.raw").allInnerTexts()
    expect(raw.join("\n")).toMatch(/webhook-signature: v1,\S+ v1,/)
    expect(raw.join("\n")).toMatch(/^200\n/m)
    await shot("delivery")
  })

  it("turns two-step sign-in on, after which sign-in asks for the app's code", async () => {
    await navTo("Your account")
    await page.getByRole("button", { name: "Set up two-step sign-in" }).click()
    const key = Totp.fromBase32(await page.locator("#totp-secret").innerText()) ?? Buffer.alloc(0)
    const now = () => Math.floor(Date.now() / 1000)
    await page.getByLabel("Code from the app (6 digits)").fill(Totp.totp(key, now()))
    await page.getByRole("button", { name: "Turn it on" }).click()
    await page.locator("#totp-setup .ok", { hasText: "Two-step sign-in is on." }).waitFor()
    await signOut()
    await signIn(email, ownerPassword)
    await page.locator("#signin-err", { hasText: "authenticator app" }).waitFor()
    await page.getByLabel("Code from your authenticator app").fill(Totp.totp(key, now() + 30))
    await page.getByRole("button", { name: "Sign in" }).click()
    await title("Today")
  })

  it("shows each change in the audit log with the values before and after", async () => {
    await navTo("Audit log")
    await page.locator("#audit tbody tr").first().waitFor()
    const rows = await page.locator("#audit tbody tr").allInnerTexts()
    const has = (action: string, text: RegExp) => expect(rows.some((row) => row.includes(action) && text.test(row)), `${action} ${text}`).toBe(true)
    has("merchant.settings", new RegExp(`webhookUrl: none → ${operator.url}/wallet`))
    has("merchant.settings", /oddEvenGameProfit: .*→ 4/)
    has("api_key.issue", /owner@pages\.example/)
    has("secret.rotate", /rotated/)
    has("secret.reveal", /owner@pages\.example/)
    has("user.invite", /fin@pages\.example/)
    has("user.password", /changed/)
    has("user.password", /fin@pages\.example[\s\S]*invitation: accepted/)
    has("user.second_factor", /owner@pages\.example/)
    expect(rows.join("\n")).not.toContain(secrets[1] ?? "?")
    await shot("audit")
  })

  it("passes axe with no serious or critical violation on every page, at 1280 and at 360 px, and works from the keyboard", async () => {
    const paths = ["/dashboard", "/rounds", "/reports", "/settings", "/rtp", "/keys", "/secrets", "/deliveries", "/users", "/audit", "/account"]
    const found: Array<string> = []
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 740 : 900 })
      for (const path of paths) {
        await open(path)
        await page.locator("#main:not([aria-busy])").waitFor()
        found.push(...(await axeViolations(page)).map((v) => `${width} ${path} ${v}`))
        const wide = Number(await page.evaluate("document.documentElement.scrollWidth"))
        if (wide > width) found.push(`${width} ${path}: ${wide} px wide`)
        await shot(`${path.slice(1)}-${width}`)
      }
    }
    expect(found).toEqual([])

    // 360 px: the navigation sits behind the menu button, which the keyboard opens (once the page has loaded: the
    // app then moves the focus to its heading, which would take an Enter meant for the menu)
    await open("/dashboard")
    await page.locator("#main:not([aria-busy])").waitFor()
    expect(await page.getByRole("link", { name: "Users" }).isVisible()).toBe(false)
    await page.getByRole("button", { name: "Menu" }).focus()
    await page.keyboard.press("Enter")
    await page.getByRole("link", { name: "Users" }).focus()
    await page.keyboard.press("Enter")
    await title("Users")
    expect(pageErrors).toEqual([])
  })

  it("passes axe on a delivery's page, signed out (sign-in, reset, invitation) and as the finance user, at 1280 and at 360 px", async () => {
    const found: Array<string> = []
    /** axe and the width of the page open now, at each width. */
    const check = async (what: string, ready?: () => Promise<void>) => {
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: width === 360 ? 740 : 900 })
        await page.locator("#main:not([aria-busy])").waitFor()
        await ready?.()
        found.push(...(await axeViolations(page)).map((v) => `${width} ${what} ${v}`))
        const wide = Number(await page.evaluate("document.documentElement.scrollWidth"))
        if (wide > width) found.push(`${width} ${what}: ${wide} px wide`)
      }
      await page.setViewportSize({ width: 1280, height: 900 })
    }
    await open("/deliveries")
    // The list, or the problem the API answered instead (said in the failure, rather than a time-out on the link)
    await page.locator("#delivery-list table, #delivery-list .err").first().waitFor()
    expect(await page.locator("#delivery-list .err").allInnerTexts()).toEqual([])
    await page.locator("#delivery-list tbody a").first().click()
    await check("a delivery", () => page.getByRole("heading", { name: /^Attempt 1/ }).first().waitFor())
    await signOut()
    for (const path of ["/signin", "/reset", "/accept"]) {
      await open(path)
      await check(path)
    }
    await signIn("fin@pages.example", financePassword)
    await title("Today")
    await check("the finance user's /dashboard", () => page.locator("#charts figure").first().waitFor())
    await open("/reports")
    await page.getByRole("button", { name: "Show the report" }).click()
    await check("the finance user's /reports", () => page.getByRole("table", { name: /GGR in ETB/ }).waitFor())
    expect(found).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
