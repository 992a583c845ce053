import { Effect, Exit, Scope } from "effect"
import { Webhook } from "standardwebhooks"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { call } from "@gateway/adapters-http/testing"
import { type Gateway, gateway } from "../testing/Gateway.ts"
import { axeViolations, demoLauncher, launchChromium, resultsDir } from "./Browser.ts"
import { eventually, playerSession, startWallet } from "./Wallet.ts"

const scope = Effect.runSync(Scope.make())
let gw: Gateway
let browser: Awaited<ReturnType<typeof launchChromium>>
let launch: Awaited<ReturnType<typeof demoLauncher>>

beforeAll(async () => {
  browser = await launchChromium({ width: 360, height: 640 })
  gw = await Effect.runPromise(Scope.provide(scope)(gateway({})))
  launch = await demoLauncher(gw, "Reload")
})
afterAll(async () => {
  await browser?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** What the player sees of the session: the game, balance, commitment, next nonce and the rounds listed. */
const seen = async (p: Page) => ({
  title: await p.locator("#title").textContent(),
  balance: await p.locator("#balance").textContent(),
  hash: await p.locator("#f-hash").textContent(),
  nonce: await p.locator("#f-nonce").textContent(),
  rounds: await p.locator("#rounds > li").count()
})
const playLotto = async (p: Page) => {
  await p.getByRole("button", { name: "Quick pick" }).click()
  await p.locator("#result").evaluate((e) => e.removeAttribute("class"))
  await p.locator("#play").click()
  await p.locator("#result.win, #result.loss").waitFor({ timeout: 10_000 })
}
/** Waits for the game view after a (re)load and for the history read from the server. */
const resumed = async (p: Page, rounds: number) => {
  await p.locator("#game:not([hidden]) #play").waitFor()
  await p.locator(`#rounds > li:nth-child(${rounds})`).waitFor({ state: "attached" })
}

/*
 * The page is opened as its own document here (an operator may open the launch URL in a tab or a
 * webview). Framed by another site, this Chromium (156) denies the frame any sessionStorage
 * (third-party storage); there the resume cookie resumes it (browser.e2e.test.ts, docs/decisions.md).
 */
describe("a session survives a reload (CONTRACT §6)", () => {
  it("resumes the same game, balance, fairness and history after a reload or the same link again (the stake leaving the balance as a round starts); another tab only with the link, another browser not", async () => {
    const page = await browser.context.newPage()
    await page.emulateMedia({ reducedMotion: "reduce" })
    const url = await launch()
    await page.goto(url)
    await page.locator("#game:not([hidden]) #play").waitFor()
    await page.getByRole("button", { name: /Lobby/ }).click()
    await page.locator(".tile[data-game='lotto']").click()
    await page.getByRole("button", { name: "Quick pick" }).waitFor()
    await playLotto(page)
    const before = await seen(page)
    assert.deepStrictEqual({ title: before.title, nonce: before.nonce, rounds: before.rounds }, { title: "Lotto", nonce: "1", rounds: 1 })
    assert.notStrictEqual(page.url(), url, "the page takes the token out of its address")
    // The history says what was picked and the net result of the round (its payout less the stake).
    const row = await page.locator("#rounds > li .rhead").first().textContent() ?? ""
    assert.match(row, /Your pick: (\d+, ){5}\d+ · \d of 6 hit/)
    assert.match(row, /[+−]\d+\.\d\d ETB|^Lotto0\.00 ETB/)
    await page.locator("#tab-history").click()
    await page.locator("#rounds > li .rhead").first().click()
    await page.screenshot({ path: join(resultsDir, "page-session-history-360x640.png") })
    await page.locator("#tab-history").click()

    // Sound is off until turned on, and the choice outlives the reload.
    const sound = page.locator("#sound")
    assert.strictEqual(await sound.getAttribute("aria-pressed"), "false")
    await sound.click()
    assert.strictEqual(await sound.getAttribute("aria-label"), "Sound on")

    // A reload (the address has no token any more): the same session, in the game left.
    await page.reload()
    await resumed(page, 1)
    assert.deepStrictEqual(await seen(page), before)
    assert.isTrue(await page.locator("#notice").isHidden())
    assert.strictEqual(await sound.getAttribute("aria-pressed"), "true", "sound stays on")
    await page.screenshot({ path: join(resultsDir, "page-session-resumed-360x640.png") })

    // It plays on with the same session: the nonce goes on from 1. The stake leaves the balance as the round starts.
    await page.evaluate(`(() => {
      window.balances = []
      new MutationObserver(() => window.balances.push(document.getElementById("balance").textContent))
        .observe(document.getElementById("balance"), { childList: true, characterData: true, subtree: true })
    })()`)
    await playLotto(page)
    assert.strictEqual(await page.locator("#f-nonce").textContent(), "2")
    const minor = (text: string | null) => Math.round(Number((text ?? "").replace(/[^\d.]/g, "")) * 100)
    const shown = await page.evaluate("window.balances") as Array<string>
    assert.strictEqual(minor(shown[0] ?? ""), minor(before.balance) - 100, `the stake of 1.00 is taken first: ${shown.join(" | ")}`)
    assert.strictEqual(shown.at(-1), await page.locator("#balance").textContent())
    const after = await seen(page)

    // The same, used, link again in this tab (a framing page reloaded hands it over again): resumed, not refused.
    await page.goto(url)
    await resumed(page, 2)
    assert.deepStrictEqual(await seen(page), after)

    // A seed revealed before a reload still verifies the rounds after it.
    await page.locator("#tab-fair").click()
    await page.getByRole("button", { name: "Change seeds" }).click()
    await page.locator("#revealed:not([hidden])").waitFor()
    await page.reload()
    await resumed(page, 2)
    await page.locator("#tab-fair").click()
    await page.getByRole("button", { name: "Verify", exact: true }).click()
    await page.locator("#verify-out.ok, #verify-out.bad").waitFor()
    assert.match(await page.locator("#verify-out").innerText(), /^✓ verified/)

    const now = await seen(page)

    // Another tab keeps nothing of this tab's storage: the bare address is incomplete. The same link there is
    // this browser's, whose resume cookie resumes the same session (docs/decisions.md): its balance and nonce.
    const other = await browser.context.newPage()
    await other.goto(`${gw.url}/play/odd-even`)
    await other.locator("#notice:not([hidden])").waitFor()
    assert.match(await other.locator("#notice").innerText(), /incomplete/)
    await other.goto(url)
    await resumed(other, 2)
    assert.deepStrictEqual(
      { balance: await other.locator("#balance").textContent(), hash: await other.locator("#f-hash").textContent(), nonce: await other.locator("#f-nonce").textContent() },
      { balance: now.balance, hash: now.hash, nonce: now.nonce }
    )
    await other.close()
    await page.close()

    // Another browser (another device, or the link copied elsewhere) has no cookie: the link is already used.
    const elsewhere = await launchChromium({ width: 360, height: 640 })
    try {
      const stranger = await elsewhere.context.newPage()
      await stranger.goto(url)
      await stranger.locator("#notice:not([hidden])").waitFor()
      assert.match(await stranger.locator("#notice").innerText(), /already been used/)
      assert.notMatch(await stranger.locator("body").innerText(), /operator/i, "players are told of the casino, not an operator")
    } finally {
      await elsewhere.close()
    }
  })
})

describe("back and forward between the lobby and a game (CONTRACT §6)", () => {
  it("Back shows the lobby of the same session, Forward the game again, and a round plays after; the token never shows in the address", async () => {
    const page = await browser.context.newPage()
    await page.emulateMedia({ reducedMotion: "reduce" })
    await page.goto(await launch())
    await page.locator("#game:not([hidden]) #play").waitFor()
    const start = await seen(page)
    const lobby = page.locator("#lobby:not([hidden]) .tile[data-game='lotto']")
    // A phone's Back on the game it was launched into shows the lobby, not the casino's page.
    await page.goBack()
    await lobby.waitFor()
    assert.isTrue(await page.locator("#game").isHidden())
    await page.goForward()
    await page.locator("#game:not([hidden]) #play").waitFor()
    assert.strictEqual(await page.locator("#title").textContent(), "Odd Even")

    await page.getByRole("button", { name: /Lobby/ }).click()
    await lobby.click()
    await page.getByRole("button", { name: "Quick pick" }).waitFor()
    await playLotto(page)
    const played = await seen(page)
    await page.goBack()
    await lobby.waitFor()
    assert.isTrue(await page.locator("#game").isHidden())
    assert.strictEqual(await page.locator("#balance").textContent(), played.balance, "the same session's balance")
    assert.strictEqual(await page.locator("#f-nonce").textContent(), "1")
    await page.goForward()
    await page.getByRole("button", { name: "Quick pick" }).waitFor()
    assert.strictEqual(await page.locator("#title").textContent(), "Lotto")
    await playLotto(page)
    assert.strictEqual(await page.locator("#f-nonce").textContent(), "2", "the same session plays on")
    assert.notStrictEqual(played.hash, null)
    assert.strictEqual((await seen(page)).hash, start.hash, "the same fairness commitment")
    assert.notInclude(page.url(), "token")
    await page.close()
  })

  /** A new page of the launch whose game is on screen while its rules are held back (a slow network) until `release`. */
  const loading = async () => {
    const page = await browser.context.newPage()
    let release = () => {}
    const held = new Promise<void>((resolve) => release = resolve)
    await page.route("**/rules", async (route) => {
      await held
      await route.continue()
    })
    await page.goto(await launch())
    await page.locator("#game:not([hidden]) #play").waitFor()
    return { page, release }
  }

  it("Back while the launched game's rules still load shows the lobby, instead of leaving for the page before the launch", async () => {
    const { page, release } = await loading()
    await page.goBack()
    release()
    await page.locator("#lobby:not([hidden]) .tile[data-game='lotto']").waitFor({ timeout: 10_000 })
    assert.isTrue(await page.locator("#game").isHidden())
    await page.goForward()
    await page.locator("#game:not([hidden]) #play:not([disabled])").waitFor()
    assert.strictEqual(await page.locator("#title").textContent(), "Odd Even")
    await page.close()
  })

  it("the Lobby button pressed (twice) while the game's rules still load shows the lobby once they have, rather than doing nothing or leaving the page", async () => {
    const { page, release } = await loading()
    const address = page.url()
    await page.getByRole("button", { name: /Lobby/ }).dblclick()
    release()
    await page.locator("#lobby:not([hidden]) .tile[data-game='lotto']").waitFor({ timeout: 10_000 })
    assert.isTrue(await page.locator("#game").isHidden())
    // A second Back would have left for the page before the launch.
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.strictEqual(page.url(), address)
    await page.locator(".tile[data-game='lotto']").click()
    await page.locator("#game:not([hidden]) #play:not([disabled])").waitFor()
    assert.strictEqual(await page.locator("#title").textContent(), "Lotto")
    await page.close()
  })
})

describe("game recall across sessions (CONTRACT §6)", () => {
  it("a new session of the player shows their last rounds of the game from the earlier one, with what they picked", async () => {
    const recallLaunch = await demoLauncher(gw, "Recall")
    const first = await browser.context.newPage()
    await first.emulateMedia({ reducedMotion: "reduce" })
    await first.goto(await recallLaunch())
    for (let i = 0; i < 3; i++) {
      await first.locator("#game:not([hidden]) #play:not([disabled])").waitFor()
      await first.locator("#result").evaluate((e) => e.removeAttribute("class"))
      await first.locator("#play").click()
      await first.locator("#result.win, #result.loss").waitFor({ timeout: 10_000 })
    }
    const played = await first.locator("#rounds > li").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-round-id")))
    await first.close()
    // The operator opens a new session for the same player (a new launch, another tab, another day).
    const second = await browser.context.newPage()
    await second.goto(await recallLaunch())
    await resumed(second, 3)
    assert.strictEqual(await second.locator("#f-nonce").textContent(), "0", "a new session")
    assert.deepStrictEqual(
      await second.locator("#rounds > li").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-round-id"))),
      played
    )
    await second.locator("#tab-history").click()
    await second.locator("#rounds > li .rhead").first().click()
    assert.match(await second.locator("#rounds > li").first().innerText(), /Your pick: (Odd|Even)/)
    await second.screenshot({ path: join(resultsDir, "page-session-recall-360x640.png") })
    await second.close()
  })
})

/** Polls an expression in the page (its CSP refuses the eval that `waitForFunction` needs). */
const until = async (p: Page, expression: string, ms = 30_000) => {
  const deadline = Date.now() + ms
  while (!(await p.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`not in time: ${expression}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
/**
 * The net result of each round of the page's session, oldest first, in minor units: from the game API with the
 * session token the page keeps (the history on the page shows the last 10 only).
 */
const nets = async (p: Page): Promise<Array<number>> => {
  const saved = JSON.parse(String(await p.evaluate(`sessionStorage.getItem("gateway.play.session")`)))
  const minor = (a: string) => Math.round(Number(a) * 100)
  const rounds: Array<{ stake: string; payout: string }> = []
  // Every page (a session here plays up to 105 rounds; a page holds 100 at most; nextPage 0 on the last).
  for (let page = 1; page !== 0;) {
    const { body } = await call(`${gw.url}/api/v1.1/game-api/rounds?limit=100&page=${page}`, {
      headers: { authorization: `Bearer ${saved.sessionToken}` }
    })
    rounds.push(...body.data)
    page = body.meta.nextPage
  }
  return rounds.map((r) => minor(r.payout) - minor(r.stake)).reverse()
}

describe("autoplay (CONTRACT §12)", () => {
  it("needs a number of rounds and a loss limit, and stops at either", async () => {
    const page = await browser.context.newPage()
    await page.emulateMedia({ reducedMotion: "reduce" })
    await page.goto(await launch())
    await page.locator("#game:not([hidden]) #play").waitFor()
    const auto = page.locator("#auto")
    const stopped = `document.getElementById("auto").getAttribute("aria-pressed") === "false"`

    await auto.click()
    assert.strictEqual(await page.locator("#auto-loss").inputValue(), "10.00", "ten stakes by default")
    await page.locator("#auto-loss").fill("")
    await page.locator("#auto-start").click()
    assert.match(await page.locator("#alert-text").innerText(), /Set a loss limit/)
    await page.locator("#auto-rounds").selectOption("5")
    await page.locator("#auto-loss").fill("1000")
    await page.locator("#auto-start").click()
    await until(page, stopped)
    assert.match(await page.locator("#auto-status").textContent() ?? "", /5 rounds played/)
    assert.strictEqual(await page.locator("#f-nonce").textContent(), "5")
    assert.strictEqual((await nets(page)).length, 5)

    await auto.click()
    await page.locator("#auto-rounds").selectOption("100")
    await page.locator("#auto-loss").fill("1.00")
    await page.locator("#auto-start").click()
    await until(page, stopped, 120_000)
    const played = (await nets(page)).slice(5)
    const status = await page.locator("#auto-status").textContent() ?? ""
    let total = 0
    const running = played.map((n) => (total += n))
    if (/loss limit/.test(status)) {
      assert.isAtMost(running.at(-1) ?? 0, -100, "it stopped once 1.00 was lost")
      assert.isTrue(running.slice(0, -1).every((t) => t > -100), `not before: ${running.join(" ")}`)
    } else {
      assert.match(status, /100 rounds played/)
      assert.isTrue(running.every((t) => t > -100))
    }
    await page.close()
  })
})


describe("a session the casino ends (CONTRACT §12)", () => {
  it("the next play shows that the casino ended the session, with the way back to the casino", async () => {
    const page = await browser.context.newPage()
    await page.emulateMedia({ reducedMotion: "reduce" })
    await page.goto(await launch("&lobbyUrl=https%3A%2F%2Fcasino.example%2Flobby"))
    await page.locator("#game:not([hidden]) #play").waitFor()
    // The page's own reads (history, recall) done first: one made after the end would show the notice before Play.
    await page.waitForLoadState("networkidle")
    const ended = await call(`${gw.url}/api/v1.1/operator-api/sessions/terminate`, {
      method: "POST", headers: { "sv-api-key": launch.key }, json: { playerId: launch.playerId }
    })
    assert.isAtLeast(ended.body.terminated, 1, ended.text)
    await page.locator("#play").click()
    await page.locator("#notice:not([hidden])").waitFor()
    assert.strictEqual(await page.locator("#notice-title").textContent(), "Session ended")
    assert.match(await page.locator("#notice-text").textContent() ?? "", /ended by the casino/)
    assert.strictEqual(await page.locator("#notice-exit").getAttribute("href"), "https://casino.example/lobby")
    assert.isTrue(await page.locator("#notice-exit").isVisible())
    assert.isTrue(await page.locator("#game").isHidden())
    await page.reload()
    await page.locator("#notice:not([hidden])").waitFor()
    assert.isTrue(await page.locator("#play").isHidden(), "a reload does not bring the game back")
    // The session is forgotten, not the launch's language and exit: the screen still leads back to the casino.
    assert.match(await page.locator("#notice-title").textContent() ?? "", /incomplete/)
    assert.strictEqual(await page.locator("#notice-exit").getAttribute("href"), "https://casino.example/lobby")
    assert.isTrue(await page.locator("#notice-exit").isVisible())
    await page.close()
  })
})

describe("a retail shop's launch (CONTRACT §11)", () => {
  it("is the cashier's page: the shop's name, large type, no lobby and no exit, also after a reload", async () => {
    const page = await browser.context.newPage()
    await page.emulateMedia({ reducedMotion: "reduce" })
    await page.setViewportSize({ width: 800, height: 600 }) // a counter's screen
    await page.goto(await launch("&shopId=Counter%207&lobbyUrl=https%3A%2F%2Fcasino.example%2F"))
    await page.locator("#game:not([hidden]) #play").waitFor()
    const cashier = async () => ({
      shop: await page.locator("#shop:not([hidden])").textContent(),
      large: await page.evaluate("getComputedStyle(document.documentElement).fontSize"),
      exit: await page.locator("#exit").isVisible(),
      lobby: await page.locator("#to-lobby").isVisible()
    })
    assert.deepStrictEqual(await cashier(), { shop: "Shop Counter 7", large: "20px", exit: false, lobby: false })
    assert.deepStrictEqual(await axeViolations(page), [])
    await page.screenshot({ path: join(resultsDir, "page-cashier-800x600.png") })
    await page.reload()
    await page.locator("#game:not([hidden]) #play").waitFor()
    assert.deepStrictEqual(await cashier(), { shop: "Shop Counter 7", large: "20px", exit: false, lobby: false })
    await page.close()
  })
})

describe("free rounds on the page (CONTRACT §13)", () => {
  /** A merchant of the operator at `walletUrl`, its grant to p-1 of odd-even free rounds, and the page showing the offer. */
  const grantedOnPage = async (walletUrl: string, email: string, campaignId: string, rounds: number, stake: string) => {
    const player = await playerSession(gw, walletUrl, email)
    const granted = await call(`${player.api}/free-rounds`, {
      method: "POST",
      headers: { "sv-api-key": player.key },
      json: { campaignId, playerId: "p-1", gameId: "odd-even", rounds, stake, expiresAt: new Date(Date.now() + 86_400_000).toISOString() }
    })
    assert.strictEqual(granted.status, 201, granted.text)
    const page = await browser.context.newPage()
    await page.emulateMedia({ reducedMotion: "reduce" })
    await page.goto(`${gw.url}/play/odd-even?token=${await player.launch()}`)
    const offer = page.locator("#free")
    await offer.waitFor()
    return { player, granted, page, offer }
  }

  it("offers the player's free rounds before real stakes and plays them with freeRound: true", async () => {
    const wallet = await startWallet(() => ({ status: 200 }))
    try {
      const { player, page, offer } = await grantedOnPage(wallet.url, "free-page@example.com", "page", 2, "3.00")
      assert.strictEqual(await offer.textContent(), "2 free rounds at 3.00 ETB — play free")
      await page.screenshot({ path: join(resultsDir, "page-free-rounds-360x640.png") })
      assert.deepStrictEqual(await axeViolations(page), [])
      await page.getByRole("button", { name: /^Odd/ }).click()
      await offer.click()
      await page.locator("#result.win, #result.loss").waitFor({ timeout: 10_000 })
      assert.match(await page.locator("#result").textContent() ?? "", /^Free round/)
      assert.strictEqual(await offer.textContent(), "1 free round at 3.00 ETB — play free")
      await page.locator("#result").evaluate((e) => e.removeAttribute("class"))
      await offer.click()
      await page.locator("#result.win, #result.loss").waitFor({ timeout: 10_000 })
      await offer.waitFor({ state: "hidden" })
      assert.isTrue(await page.locator("#play").isVisible(), "real stakes once the free rounds are played")
      const debits = wallet.messages().filter((m) => m.body.type === "transaction.debit")
      assert.strictEqual(debits.length, 0, "free rounds send no debit")
      const rounds = await call(`${player.api}/free-rounds?playerId=p-1`, { headers: { "sv-api-key": player.key } })
      assert.include(rounds.body.data[0], { remaining: 0, status: "used" })
      await page.close()
    } finally {
      await wallet.close()
    }
  })

  it("a free round won in Chromium: its credit verifies with standardwebhooks and its roundDetailsUrl opens the round", async () => {
    const wallet = await startWallet(() => ({ status: 200 }))
    try {
      const { player, granted, page, offer } = await grantedOnPage(wallet.url, "free-won@example.com", "won", 30, "4.00")
      await page.getByRole("button", { name: /^Odd/ }).click()
      // Free rounds until one wins (30 at even odds: a loss every time would be a one-in-a-billion run).
      for (let played = 0; played < 30 && !(await page.locator("#result.win").isVisible()); played++) {
        await page.locator("#result").evaluate((e) => e.removeAttribute("class"))
        await offer.click()
        await page.locator("#result.win, #result.loss").waitFor({ timeout: 10_000 })
      }
      assert.match(await page.locator("#result.win").textContent() ?? "", /^Free round/)
      await eventually(() => wallet.messages().some((m) => m.body.type === "transaction.credit"))
      const [credit] = wallet.received.filter((r) => r.url === "/wallet")
      const verified = new Webhook(player.encryptionKey).verify(credit!.body, {
        "webhook-id": String(credit!.headers["webhook-id"]),
        "webhook-timestamp": String(credit!.headers["webhook-timestamp"]),
        "webhook-signature": String(credit!.headers["webhook-signature"])
      }) as { type: string; data: { amount: string; freeRound: unknown; refTransactionId?: string; roundId: string; roundDetailsUrl: string } }
      assert.strictEqual(verified.type, "transaction.credit")
      assert.deepStrictEqual(verified.data.freeRound, { campaignId: "won", grantId: granted.body.id })
      assert.isUndefined(verified.data.refTransactionId, "a free round's credit settles no debit")
      assert.strictEqual(wallet.messages().filter((m) => m.body.type === "transaction.debit").length, 0)
      await page.goto(verified.data.roundDetailsUrl)
      const shown = await page.locator("body").innerText()
      assert.include(shown, verified.data.roundId)
      assert.include(shown, verified.data.amount)
      await page.close()
    } finally {
      await wallet.close()
    }
  })
})
