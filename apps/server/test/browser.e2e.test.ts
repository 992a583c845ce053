import { Effect, Exit, Scope } from "effect"
import { join } from "node:path"
import type { Frame, FrameLocator, Page } from "playwright-core"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { definitions } from "@gateway/domain/games/Definitions"
import { type Gateway, gateway } from "../testing/Gateway.ts"
import { launchChromium, ledgerWallet, resultsDir, startOperatorSite } from "./Browser.ts"
import { eventually, startWallet } from "./Wallet.ts"

const scope = Effect.runSync(Scope.make())
const ledger = ledgerWallet("1000.00")
const launchTtlSeconds = 10
let gw: Gateway
let wallet: Awaited<ReturnType<typeof startWallet>>
let site: Awaited<ReturnType<typeof startOperatorSite>>
let browser: Awaited<ReturnType<typeof launchChromium>>
let page: Page
let launch: (gameId: string, query?: string) => Promise<string>
let expiring: { readonly url: string; readonly french: string; readonly at: number }
const casinoLobby = "https://casino.example/lobby?from=expired"

beforeAll(async () => {
  browser = await launchChromium({ width: 360, height: 640 })
  wallet = await startWallet(ledger.reply)
  site = await startOperatorSite()
  gw = await Effect.runPromise(Scope.provide(scope)(gateway({
    WEBHOOK_TIMEOUT_MS: "2000",
    WEBHOOK_RETRY_SCHEDULE: "0.2,0.2,0.2,0.2",
    LAUNCH_TOKEN_TTL_SECONDS: String(launchTtlSeconds)
  })))
  const admin = { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
  const api = `${gw.url}/api/v1.1/operator-api`
  const merchant = await call(`${api}/create`, {
    method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Browser Casino", email: "browser@example.com", providerId: 1 }
  })
  assert.strictEqual(merchant.status, 201, merchant.text)
  const settings = await call(`${api}/merchants/${merchant.body.id}/settings`, {
    method: "PUT",
    headers: admin,
    json: {
      userDetailsUrl: `${wallet.url}/details`,
      webhookUrl: `${wallet.url}/wallet`,
      minimumStake: 1,
      maximumStake: 500,
      logo1xUrl: `${gw.url}/static/games/lotto.svg`,
      logo2xUrl: `${gw.url}/static/games/lotto.svg`,
      cupImageUrl: `${gw.url}/static/games/single.svg`,
      frameAncestors: site.origin
    }
  })
  assert.strictEqual(settings.status, 200, settings.text)
  const key = (await call(`${api}/merchants/${merchant.body.id}/api-keys`, { method: "POST", headers: admin })).body.apiKey
  let sessions = 0
  launch = async (gameId, query = "") => {
    const launched = await call(
      `${api}/games/generate-launch-url?gameId=${gameId}&playerId=player-1&sessionId=browser-${++sessions}&mode=real${query}`,
      { headers: { "sv-api-key": key } }
    )
    assert.strictEqual(launched.status, 200, launched.text)
    return String(launched.body.url)
  }
  const at = Date.now()
  expiring = { url: await launch("odd-even"), french: await launch("odd-even", `&language=fr&lobbyUrl=${encodeURIComponent(casinoLobby)}`), at }
  page = await browser.context.newPage()
})
afterAll(async () => {
  await browser?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await site?.close()
  await wallet?.close()
})

/** The game page inside the operator's iframe. */
const game = (): FrameLocator => page.frameLocator("iframe#game")
const gameFrame = (): Frame => {
  const frame = page.frames().find((f) => f.url().includes("/play/"))
  if (frame === undefined) throw new Error(`no game frame among ${page.frames().map((f) => f.url()).join(", ")}`)
  return frame
}
/** Polls an expression in the game frame (the page's CSP refuses the eval that `waitForFunction` needs). */
const until = async (expression: string) => {
  const deadline = Date.now() + 10_000
  while (!(await gameFrame().evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`not in time: ${expression}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
const shot = (name: string) => page.screenshot({ path: join(resultsDir, name) })

/** What of the play view lies outside the frame or needs scrolling (nothing, when it fits). */
const overflow = (): Promise<Array<string>> =>
  gameFrame().evaluate(`(() => {
    const out = []
    // Every animation that ends is taken to its end, where it leaves things (a win's burst is largest there).
    for (const a of document.getAnimations()) if (a.effect?.getComputedTiming().endTime !== Infinity) a.finish()
    const de = document.documentElement
    if (de.scrollHeight > innerHeight || de.scrollWidth > innerWidth) out.push("page " + de.scrollWidth + "x" + de.scrollHeight)
    for (const id of ["game", "controls"]) {
      const e = document.getElementById(id)
      if (e.scrollHeight > e.clientHeight + 1) out.push(id + " scrolls " + e.scrollHeight + ">" + e.clientHeight)
    }
    const stage = document.getElementById("stage").getBoundingClientRect()
    for (const e of document.querySelectorAll("#game *")) {
      // The pay strip's items scroll within it (it fades where there is more); the strip itself must fit.
      if (e.closest("[hidden], .paystrip > *")) continue
      const r = e.getBoundingClientRect()
      if (r.width === 0 && r.height === 0) continue
      const box = e.closest("#stage") ? stage : { left: 0, top: 0, right: innerWidth, bottom: innerHeight }
      if (r.left < box.left - 1 || r.top < box.top - 1 || r.right > box.right + 1 || r.bottom > box.bottom + 1) {
        out.push(e.tagName + "#" + e.id + "." + e.className + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round))
      }
    }
    return out
  })()`)

/** Visible text whose contrast with its background is under 4.5:1 (WCAG AA). */
const lowContrast = (): Promise<Array<string>> =>
  gameFrame().evaluate(`(() => {
    const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number)
    const lum = (c) => { const f = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]) }
    const background = (e) => {
      for (let n = e; n; n = n.parentElement) {
        const s = getComputedStyle(n)
        if (s.backgroundImage !== "none") return null
        const c = rgb(s.backgroundColor)
        if (c.length === 3 || c[3] === 1) return c
        if (c[3] > 0) return null
      }
      return rgb(getComputedStyle(document.body).backgroundColor)
    }
    const low = []
    for (const e of document.querySelectorAll("body *")) {
      if (!e.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue
      if (e.closest("[aria-hidden=true], [aria-disabled=true], :disabled")) continue
      if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== "")) continue
      const bg = background(e)
      if (bg === null) continue
      const [a, b] = [lum(rgb(getComputedStyle(e).color)), lum(bg)].sort((x, y) => y - x)
      const ratio = (a + 0.05) / (b + 0.05)
      if (ratio < 4.5) low.push(e.tagName + "." + e.className + " '" + e.textContent.trim().slice(0, 24) + "' " + ratio.toFixed(2))
    }
    return low
  })()`)

/**
 * How each game is played, from its definition's controls: the last choice clicked; one number clicked; or, of
 * several numbers, three picked with the keyboard (Space, an arrow and Enter, the arrow down a row).
 */
const pick = (id: string): ((f: FrameLocator) => Promise<void>) => {
  const controls = definitions.find((d) => d.id === id)?.controls
  if (controls === undefined) throw new Error(`no definition of ${id}`)
  if (controls.kind === "choices") {
    return (f) => f.locator(`#controls .choice[data-value='${JSON.stringify(controls.choices.at(-1)?.[0])}']`).click()
  }
  if (controls.most === 1) return (f) => f.locator(`.cell[data-n='${Math.min(17, controls.total)}']`).click()
  return async (f) => {
    await f.locator(".cell").first().focus()
    await page.keyboard.press("Space")
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("Enter")
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("Space")
    assert.deepStrictEqual(await f.locator(".cell[aria-pressed=true]").allTextContents(), ["1", "2", String(2 + controls.cols)])
  }
}

const rounds: Array<{ readonly gameId: string; readonly roundId: string; readonly payout: string }> = []
const balanceText = async () => (await game().locator("#balance").textContent() ?? "").replace(/,/g, "")

describe("the game page in a real browser, framed by an operator's site", () => {
  it("opens a real-money launch link in the iframe, shows the lobby, and plays one round of every game", async () => {
    const url = await launch("odd-even")
    const headers = (await fetch(url)).headers
    assert.include(headers.get("content-security-policy") ?? "", `frame-ancestors ${site.origin}`)
    await page.goto(site.embed("main", url))
    const f = game()
    await f.locator("#game:not([hidden])").waitFor()
    assert.strictEqual(await f.locator("#title").textContent(), "Odd Even")
    assert.strictEqual(await balanceText(), "1000.00 ETB")
    assert.strictEqual(await f.locator("#logo").getAttribute("srcset"), `${gw.url}/static/games/lotto.svg 1x, ${gw.url}/static/games/lotto.svg 2x`)

    await f.getByRole("button", { name: /Lobby/ }).click()
    const tiles = f.locator(".tile")
    await tiles.first().waitFor()
    const ids = await tiles.evaluateAll((els) => els.map((e) => e.getAttribute("data-game") ?? ""))
    assert.sameMembers(ids, definitions.map((d) => d.id))
    await until(`[...document.querySelectorAll(".tile img")].every((i) => i.complete && i.naturalWidth > 0)`)
    await shot("game-page-lobby-mobile-360x640.png")
    assert.deepStrictEqual(await lowContrast(), [], "lobby")

    let first = true
    for (const id of ids) {
      if (!first) await f.getByRole("button", { name: /Lobby/ }).click()
      await f.locator(`.tile[data-game='${id}']`).click()
      await f.locator("#game:not([hidden]) #play").waitFor()
      const before = await balanceText()
      await pick(id)(f)
      await f.locator("#play").click()
      const result = f.locator("#result.win, #result.loss")
      await result.waitFor({ timeout: 10_000 })
      const text = await result.innerText()
      assert.match(text, /You win [\d,.]+ ETB!|No win this time/)
      const payout = /You win ([\d,.]+) ETB/.exec(text)?.[1]?.replace(/,/g, "") ?? "0.00"
      const roundId = await f.locator("#rounds > li").first().getAttribute("data-round-id") ?? ""
      assert.notStrictEqual(roundId, "")
      rounds.push({ gameId: id, roundId, payout })
      if (payout !== "1.00") assert.notStrictEqual(await balanceText(), before, `the balance changes after ${id}`)
      if (payout !== "0.00") assert.strictEqual(await f.locator("#cup").getAttribute("src"), `${gw.url}/static/games/single.svg`)
      assert.deepStrictEqual(await overflow(), [], `${id} fits 360×640`)
      assert.deepStrictEqual(await lowContrast(), [], id)
      if (id === "mega-ten") await shot("game-page-mobile-360x640.png")
      first = false
    }

    await eventually(() =>
      rounds.every((r) => {
        const mine = wallet.messages().filter((m) => m.body.data.roundId === r.roundId)
        return mine.some((m) => m.body.type === "transaction.credit")
      })
    )
    for (const r of rounds) {
      const mine = wallet.messages().filter((m) => m.body.data.roundId === r.roundId)
      const debit = mine.find((m) => m.body.type === "transaction.debit")
      const credit = mine.find((m) => m.body.type === "transaction.credit")
      assert.strictEqual(debit?.body.data.amount, "1.00", r.gameId)
      assert.strictEqual(credit?.body.data.amount, r.payout, r.gameId)
      assert.strictEqual(credit?.body.data.refTransactionId, debit?.body.data.transactionId)
    }
    assert.strictEqual(await balanceText(), `${ledger.balance()} ETB`)
    assert.strictEqual(await f.locator("#rounds > li").count(), rounds.length)
  })

  it("changes the client seed, reveals the server seed and verifies every round in the browser", async () => {
    assert.strictEqual(rounds.length, 6, "the first test played every game")
    await page.setViewportSize({ width: 1280, height: 800 })
    const f = game()
    await f.locator("#tab-fair").click()
    const committed = await f.locator("#f-hash").textContent()
    assert.strictEqual(await f.locator("#f-nonce").textContent(), String(rounds.length))
    await f.locator("#seed-input").fill("browser-test-seed")
    await f.getByRole("button", { name: "Change seeds" }).click()
    await f.locator("#revealed:not([hidden])").waitFor()
    assert.strictEqual(await f.locator("#v-hash").textContent(), committed)
    assert.strictEqual(await f.locator("#f-client").textContent(), "browser-test-seed")
    assert.strictEqual(await f.locator("#f-nonce").textContent(), "0")
    assert.notStrictEqual(await f.locator("#f-hash").textContent(), committed)
    for (const r of rounds) {
      await f.locator("#verify-round").selectOption(r.roundId)
      await f.getByRole("button", { name: "Verify", exact: true }).click()
      await f.locator("#verify-out.ok, #verify-out.bad").waitFor()
      assert.match(await f.locator("#verify-out").innerText(), /^✓ verified/, r.gameId)
      await f.locator("#verify-out").evaluate((e) => e.removeAttribute("class"))
    }
    assert.deepStrictEqual(await overflow(), [])
    assert.deepStrictEqual(await lowContrast(), [])
    await shot("game-page-desktop-1280x800.png")
  })

  it("explains a refused bet and an unavailable wallet, and a reused, forged, expired or refused link; no lobby when disabled", async () => {
    const f = game()
    await f.getByRole("button", { name: /Lobby/ }).click()
    await f.locator(".tile[data-game='odd-even']").click()
    await f.getByRole("button", { name: /^Even/ }).click()
    for (const [status, text] of [[402, /refused this bet/], [503, /did not answer/]] as const) {
      ledger.state.failDebits = status
      await f.locator("#play").click()
      await f.locator("#alert:not([hidden])").waitFor()
      assert.match(await f.locator("#alert-text").innerText(), text)
      await f.getByRole("button", { name: "Dismiss" }).click()
    }
    ledger.state.failDebits = 0

    const notice = async (src: string) => {
      await page.goto(site.embed(`n${Math.random()}`, src))
      await game().locator("#notice:not([hidden])").waitFor()
      return game().locator("#notice").innerText()
    }
    const once = await launch("color-game", "&disableGameLobby=true")
    await page.goto(site.embed("once", once))
    await game().locator("#game:not([hidden])").waitFor()
    assert.strictEqual(await game().locator("#title").textContent(), "Color Game")
    assert.isFalse(await game().locator("#to-lobby").isVisible(), "no lobby when the launch disabled it")
    // The casino's site framing the used link again (another of its pages, or the same one reloaded) resumes its
    // session through the resume cookie; in a browser without that cookie the link is used (the test below).
    await page.goto(site.embed("once-again", once))
    await game().locator("#game:not([hidden])").waitFor()
    assert.strictEqual(await game().locator("#title").textContent(), "Color Game")
    assert.isFalse(await game().locator("#to-lobby").isVisible(), "the resumed session has no lobby either")
    assert.match(await notice(expiring.url.slice(0, -6) + (expiring.url.endsWith("AAAAAA") ? "BBBBBB" : "AAAAAA")), /not valid/)
    const left = expiring.at + launchTtlSeconds * 1000 + 1500 - Date.now()
    if (left > 0) await new Promise((r) => setTimeout(r, left))
    assert.match(await notice(expiring.url), /has expired/)
    // An expired link's signature still verifies: its screen speaks the launch's language and leads back to the casino.
    assert.match(await notice(expiring.french), /Ce lien a expiré/)
    assert.strictEqual(await game().locator("#notice-exit").getAttribute("href"), casinoLobby)
    assert.strictEqual(await game().locator("#notice-exit").innerText(), "Retour au casino")
    assert.strictEqual(await game().locator("html").getAttribute("lang"), "fr")
    const blocked = await launch("odd-even")
    wallet.setDetails((body) => ({ playerId: body.playerId, currency: "ETB", balance: "1000.00", status: "blocked" }))
    assert.match(await notice(blocked), /did not accept your account/)
    wallet.setDetails((body) => ({ playerId: body.playerId, currency: "ETB", balance: "1000.00" }))

    const framedElsewhere = await launch("odd-even")
    await page.goto(site.embed("elsewhere", framedElsewhere).replace(site.origin, site.otherOrigin))
    await new Promise((r) => setTimeout(r, 500))
    const frames = page.frames().filter((fr) => fr !== page.mainFrame())
    assert.strictEqual(frames.length, 1)
    for (const fr of frames) assert.strictEqual(await fr.locator("#app").count(), 0, "the page refuses a framer outside frameAncestors")
  })

  it("resumes the same session when the casino's page reloads; the same link in another browser is already used", async () => {
    // The operator reports its ledger's balance, as a real one does.
    wallet.setDetails((body) => ({ playerId: body.playerId, currency: "ETB", balance: ledger.balance() }))
    const other = await launchChromium({ width: 360, height: 640 })
    try {
      const url = await launch("odd-even", "&disableGameLobby=true")
      await page.goto(site.embed("reloaded", url))
      const f = game()
      await f.locator("#game:not([hidden]) #play").waitFor()
      assert.strictEqual(
        await gameFrame().evaluate(`(() => { try { return typeof sessionStorage.length } catch { return "denied" } })()`),
        "denied",
        "framed by another site, this Chromium gives the page no sessionStorage: the cookie is what resumes"
      )
      // The same link in another browser, while the link is still within its lifetime (LAUNCH_TOKEN_TTL_SECONDS is
      // 10 here: under the whole suite's load the rounds and the reload below took longer, and the link was then
      // refused as expired instead of as used).
      const elsewhere = await other.context.newPage()
      await elsewhere.goto(site.embed("elsewhere-browser", url))
      const g = elsewhere.frameLocator("iframe#game")
      await g.locator("#notice:not([hidden])").waitFor()
      assert.match(await g.locator("#notice").innerText(), /already been used/)
      await f.getByRole("button", { name: /^Odd/ }).click()
      await f.locator("#play").click()
      await f.locator("#result.win, #result.loss").waitFor({ timeout: 10_000 })
      const roundId = await f.locator("#rounds > li").first().getAttribute("data-round-id") ?? ""
      await eventually(() => wallet.messages().some((m) => m.body.data.roundId === roundId && m.body.type === "transaction.credit"))
      const balance = await balanceText()
      assert.strictEqual(balance, `${ledger.balance()} ETB`)

      await page.reload()
      await f.locator("#game:not([hidden]) #play").waitFor()
      assert.strictEqual(await f.locator("#title").textContent(), "Odd Even")
      assert.strictEqual(await balanceText(), balance, "the same balance")
      await f.locator(`#rounds > li[data-round-id='${roundId}']`).waitFor({ state: "attached" })
      assert.strictEqual(await f.locator("#rounds > li").first().getAttribute("data-round-id"), roundId, "the history")
      assert.strictEqual(await f.locator("#f-nonce").textContent(), "1", "the same fairness state")
      await f.getByRole("button", { name: /^Even/ }).click()
      await f.locator("#play").click()
      await f.locator("#result.win, #result.loss").waitFor({ timeout: 10_000 })
      await f.locator(`#rounds > li:nth-child(2)[data-round-id='${roundId}']`).waitFor({ state: "attached" })
      assert.notStrictEqual(await f.locator("#rounds > li").first().getAttribute("data-round-id"), roundId, "a round after the reload")
      assert.strictEqual(await f.locator("#f-nonce").textContent(), "2")
    } finally {
      await other.close()
      wallet.setDetails((body) => ({ playerId: body.playerId, currency: "ETB", balance: "1000.00" }))
    }
  })

  /**
   * Lotto is shown, then Odd Even opened from the lobby with its rules held back 1 s; `meanwhile` runs once the
   * page has asked for them, and `rules` says whether they were asked for (once) and have been answered yet.
   */
  const whileOddEvenOpens = async (meanwhile: (f: FrameLocator, rules: () => { held: number; answered: boolean }) => Promise<void>) => {
    await page.goto(site.embed("main", await launch("lotto")))
    const f = game()
    await f.locator("#game:not([hidden]) #controls .cell").first().waitFor()
    const slowRules = "**/game-api/games/odd-even/rules"
    const rules = { held: 0, answered: false }
    await page.route(slowRules, async (route) => {
      rules.held++
      await new Promise((resolve) => setTimeout(resolve, 1000))
      rules.answered = true
      await route.continue()
    })
    try {
      await f.getByRole("button", { name: /Lobby/ }).click()
      await f.locator(".tile[data-game='odd-even']").click()
      await f.locator("#game:not([hidden]) #play").waitFor()
      for (let i = 0; i < 100 && rules.held === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
      await meanwhile(f, () => ({ ...rules }))
      assert.strictEqual(await f.locator("#title").textContent(), "Odd Even")
    } finally {
      await page.unroute(slowRules)
    }
  }

  it("takes away the last game's controls as soon as another game opens, before that game's rules have loaded", async () => {
    // Meanwhile Lotto's numbers must not stay on screen to be picked.
    await whileOddEvenOpens(async (f, rules) => {
      const numbers = await f.locator("#controls .cell").count()
      assert.deepStrictEqual(rules(), { held: 1, answered: false }, "Odd Even's rules are still loading")
      assert.strictEqual(numbers, 0, "Lotto's numbers are gone")
      await f.locator("#controls .choice").first().waitFor()
    })
  })

  it("plays a round when Play is pressed while the game's rules are still loading, once they have", async () => {
    await whileOddEvenOpens(async (f, rules) => {
      await f.locator("#play").click()
      assert.deepStrictEqual(rules(), { held: 1, answered: false }, "Play was pressed while the rules loaded")
      // The press is not dropped: the round is played once the rules are in.
      await f.locator("#result.win, #result.loss, #alert:not([hidden]), #notice:not([hidden])").first().waitFor({ timeout: 10_000 })
      assert.deepStrictEqual(await f.locator("#alert:not([hidden]), #notice:not([hidden])").allInnerTexts(), [])
    })
  })
})

describe("the API reference in a real browser", () => {
  it("renders /docs from the bundle's own copy of Scalar, fetching nothing from elsewhere", async () => {
    const docs = await browser.context.newPage()
    const elsewhere: Array<string> = []
    const here: Array<string> = []
    docs.on("request", (request) => {
      const { hostname, pathname } = new URL(request.url())
      if (request.url().startsWith("http") && hostname !== "127.0.0.1") elsewhere.push(request.url())
      else here.push(pathname)
    })
    await docs.goto(`${gw.url}/docs`)
    // Headings only Scalar's script renders (the page as served has none): the script was there and ran.
    await docs.getByRole("heading", { name: "Operator Gateway" }).waitFor({ timeout: 20_000 })
    await docs.getByText("Download OpenAPI Document").first().waitFor()
    // A long document scrolls down, never sideways, on a phone as on a desktop, anywhere in it: measured once the
    // operations have rendered (their responses lists come last; measured before them, two overflows went unseen:
    // each response row's strip, 24 px past a phone's edge, and the sticky header's long operation titles), at each
    // screen from the top to the bottom, as the header shows each section's title. The worst fails, naming what
    // reaches past the window's edge there.
    await docs.getByRole("list", { name: "Responses" }).first().waitFor({ timeout: 20_000 })
    await docs.evaluate("document.fonts.ready.then(() => undefined)")
    assert.deepStrictEqual(elsewhere, [])
    // The script, the reference's own style sheet and the document, each from this gateway.
    assert.includeMembers(here, ["/docs", "/docs/scalar.js", "/docs/docs.css", "/openapi.json"])
    const sideways = async (): Promise<{ readonly by: number; readonly at: number; readonly past: string }> => {
      let worst = { by: 0, at: 0, past: "" }
      for (let screens = 0; screens < 200; screens++) {
        const screen = await docs.evaluate<{ by: number; at: number; past: string; end: boolean }>(`new Promise((settled) =>
          requestAnimationFrame(() => requestAnimationFrame(() => {
            const by = document.documentElement.scrollWidth - innerWidth
            const past = by <= 0 ? "" : [...document.querySelectorAll("body *")]
              .filter((e) => { const r = e.getBoundingClientRect(); return r.right > innerWidth + 0.5 && r.width * r.height > 0 })
              .filter((e) => { for (let a = e.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return false; return true })
              .slice(0, 3).map((e) => e.tagName.toLowerCase() + (typeof e.className === "string" && e.className ? "." + e.className.split(" ").join(".") : "") + " to " + Math.round(e.getBoundingClientRect().right) + " px").join(", ") || "no box of an element: text or a ::before or ::after"
            const at = scrollY
            scrollBy(0, innerHeight)
            settled({ by, at, past, end: scrollY === at })
          })))`)
        if (screen.by > worst.by) worst = screen
        if (screen.end) break
      }
      await docs.evaluate("scrollTo(0, 0)")
      return worst
    }
    const phone = await sideways()
    assert.isAtMost(phone.by, 0, `/docs fits 360 px across (${phone.at} px down, past its edge: ${phone.past})`)
    await docs.screenshot({ path: join(resultsDir, "docs-360x640.png") })
    await docs.setViewportSize({ width: 1280, height: 800 })
    const desktop = await sideways()
    assert.isAtMost(desktop.by, 0, `/docs fits 1280 px across (${desktop.at} px down, past its edge: ${desktop.past})`)
    await docs.screenshot({ path: join(resultsDir, "docs-1280x800.png") })
    await docs.close()
  })
})
