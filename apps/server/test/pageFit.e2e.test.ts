import { Effect, Exit, Scope } from "effect"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { definitions } from "@gateway/domain/games/Definitions"
import { type Gateway, gateway } from "../testing/Gateway.ts"
import { axeViolations, demoLauncher, launchChromium, resultsDir } from "./Browser.ts"

const scope = Effect.runSync(Scope.make())
let gw: Gateway
let browser: Awaited<ReturnType<typeof launchChromium>>
let launch: (query?: string) => Promise<string>

beforeAll(async () => {
  browser = await launchChromium({ width: 360, height: 640 })
  gw = await Effect.runPromise(Scope.provide(scope)(gateway({})))
  launch = await demoLauncher(gw, "Fit")
})
afterAll(async () => {
  await browser?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

/**
 * Every visible element of the page that does not fit its container: its
 * border box (less what a negative margin pulls out on purpose) outside its
 * parent's content box, unless the parent scrolls (a list, a panel) or the
 * element is positioned out of the flow; and any element whose own content
 * is wider or taller than itself without scrolling or clipping on purpose.
 * The Under Over dice before the fix: `padding: 12%` of the stage's width
 * left a die no room, and its pips spilled out of it.
 */
const misfits = (page: Page): Promise<Array<string>> =>
  page.evaluate(`(() => {
    const out = []
    const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\\s+/).join(".") : "")
    const px = (v) => parseFloat(v) || 0
    const scrolls = (s) => /auto|scroll/.test(s.overflowX + s.overflowY)
    for (const e of document.querySelectorAll("#app *")) {
      if (!e.checkVisibility({ visibilityProperty: true }) || e.closest("[hidden]")) continue
      const s = getComputedStyle(e)
      const r = e.getBoundingClientRect()
      if (r.width === 0 && r.height === 0) continue
      const p = e.parentElement
      const ps = getComputedStyle(p)
      if (!/absolute|fixed/.test(s.position) && !scrolls(ps) && ps.display !== "contents") {
        const q = p.getBoundingClientRect()
        const box = {
          left: q.left + px(ps.borderLeftWidth) + px(ps.paddingLeft), right: q.right - px(ps.borderRightWidth) - px(ps.paddingRight),
          top: q.top + px(ps.borderTopWidth) + px(ps.paddingTop), bottom: q.bottom - px(ps.borderBottomWidth) - px(ps.paddingBottom)
        }
        const pull = (m) => Math.min(0, px(m))
        const mine = {
          left: r.left - pull(s.marginLeft), right: r.right + pull(s.marginRight),
          top: r.top - pull(s.marginTop), bottom: r.bottom + pull(s.marginBottom)
        }
        const spill = [
          box.left - mine.left, mine.right - box.right, box.top - mine.top, mine.bottom - box.bottom
        ].map((d) => Math.round(d * 10) / 10)
        if (spill.some((d) => d > 1)) out.push(name(e) + " spills out of " + name(p) + " by " + spill.join("/") + " px (left/right/top/bottom)")
      }
      if (!scrolls(s) && !/hidden|clip/.test(s.overflowX + s.overflowY) && s.display !== "inline" && e.clientWidth > 0 &&
          (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)) {
        out.push(name(e) + " holds content of " + e.scrollWidth + "x" + e.scrollHeight + " in " + e.clientWidth + "x" + e.clientHeight)
      }
    }
    return out
  })()`)

/**
 * The pay strip under a number grid, when it is wider than the controls: whether it shows that it scrolls (a
 * fade at the edge with more) and takes the keyboard's focus. Undefined when there is none or it fits.
 */
const stripCue = (page: Page): Promise<{ fade: boolean; focusable: boolean } | undefined> =>
  page.evaluate(`(() => {
    const s = document.getElementById("paystrip")
    if (s === null || !s.checkVisibility() || s.scrollWidth <= s.clientWidth + 1) return undefined
    return { fade: getComputedStyle(s).maskImage.includes("gradient"), focusable: s.tabIndex === 0 }
  })()`)

/** Polls an expression in the page (its CSP refuses the eval that `waitForFunction` needs). */
const until = async (page: Page, expression: string) => {
  const deadline = Date.now() + 10_000
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`not in time: ${expression}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** How many cells or choices a game's default pick presses, from its definition: one choice, or a quick pick of the most numbers. */
const defaultPicks = (id: string): number | undefined => {
  const controls = definitions.find((d) => d.id === id)?.controls
  return controls === undefined ? undefined : controls.kind === "numbers" ? controls.most : 1
}

const pickFor = async (page: Page) => {
  if (await page.locator("#controls .choice").count() > 0) await page.locator("#controls .choice").last().click()
  else if (await page.getByRole("button", { name: "Quick pick" }).count() > 0) await page.getByRole("button", { name: "Quick pick" }).click()
  else await page.locator("#controls .cell[data-n='17']").click()
}

describe("the game page fits its frame", () => {
  for (const viewport of [{ width: 360, height: 640 }, { width: 1280, height: 800 }]) {
    const size = `${viewport.width}x${viewport.height}`
    it(`at ${size}: no element of any game overflows its container, before and after a round; Play is ready with a hint; axe-core finds nothing serious`, async () => {
      const page = await browser.context.newPage()
      await page.setViewportSize(viewport)
      await page.emulateMedia({ reducedMotion: "reduce" })
      await page.goto(await launch())
      await page.locator("#game:not([hidden]) #play").waitFor()
      await page.locator("#to-lobby").click()
      await until(page, `[...document.querySelectorAll(".tile img")].every((i) => i.complete && i.naturalWidth > 0)`)
      const found: Record<string, Array<string>> = {}
      const note = (where: string, list: Array<string>) => {
        if (list.length > 0) found[where] = list
      }
      note("lobby", await misfits(page))
      const cut: Array<string> = []
      note("lobby axe", await axeViolations(page))
      const ids = await page.locator(".tile").evaluateAll((els) => els.map((e) => e.getAttribute("data-game") ?? ""))
      assert.sameMembers(ids, definitions.map((d) => d.id), "the lobby has every game of the definitions")
      for (const id of ids) {
        if (await page.locator("#to-lobby").isVisible()) await page.locator("#to-lobby").click()
        const name = await page.locator(`.tile[data-game='${id}'] span`).textContent() ?? ""
        await page.locator(`.tile[data-game='${id}']`).click()
        await page.locator("#game:not([hidden]) #play").waitFor()
        // The controls are the game's once its rules are shown (they are read before the controls are built).
        await until(page, `document.getElementById("r-name").textContent === ${JSON.stringify(name)}`)
        note(`${id} idle`, await misfits(page))
        const cue = await stripCue(page)
        if (cue !== undefined) {
          cut.push(id)
          if (!cue.fade || !cue.focusable) note(`${id} pay strip cut off without a cue`, [JSON.stringify(cue)])
        }
        // A pick is made or made for the player: Play is ready from the start, under a hint of what to do.
        assert.strictEqual(await page.locator("#play").getAttribute("aria-disabled"), "false", id)
        assert.match(await page.locator("#result.hint").innerText(), /press Play/, id)
        // On the phone the player picks; on the desktop Play is pressed at once, with the default pick.
        if (viewport.width < 860) await pickFor(page)
        await page.locator("#play").click()
        await played(page)
        const picked = await page.locator("#controls [aria-pressed=true]").count()
        if (viewport.width >= 860) assert.strictEqual(picked, defaultPicks(id), `${id}: the default pick`)
        assert.isAbove(picked, 0, id)
        note(`${id} played`, await misfits(page))
        // axe-core, once per game and size: no serious or critical violation.
        note(`${id} axe`, await axeViolations(page))
        await page.screenshot({ path: join(resultsDir, `page-fit-${id}-${size}.png`) })
      }
      await page.locator("#auto").click()
      await page.locator("#autoplay:not([hidden])").waitFor()
      note("autoplay panel", await misfits(page))
      await page.screenshot({ path: join(resultsDir, `page-fit-autoplay-${size}.png`) })
      await page.close()
      assert.deepStrictEqual(found, {})
      // On the phone a pay strip is wider than the controls (what the cue is for); the test above saw it.
      if (viewport.width < 860) assert.isNotEmpty(cut, "a pay strip that scrolls at 360 px")
    })
  }
})

/**
 * Waits for the round's result. A round the page could not play fails naming what the page said instead (its alert
 * or its notice) rather than timing out on the result: a CI run once timed out here without saying why.
 */
const played = async (page: Page): Promise<void> => {
  await page.locator("#result.win, #result.loss, #alert:not([hidden]), #notice:not([hidden])").first().waitFor({ timeout: 10_000 })
  assert.deepStrictEqual(await page.locator("#alert:not([hidden]), #notice:not([hidden])").allInnerTexts(), [], "the round was not played")
}

/** Presses Tab until the focused element matches `selector` (at most `most` presses): what a keyboard user does. */
const tabTo = async (page: Page, selector: string, most = 80) => {
  for (let i = 0; i < most; i++) {
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) === true`)) return
    await page.keyboard.press("Tab")
  }
  throw new Error(`Tab never reached ${selector}`)
}

describe("every game is playable by keyboard alone", () => {
  it("from the lobby, each game of the definitions opens with Enter, takes a pick with arrows and Space, and plays with Enter", async () => {
    const page = await browser.context.newPage()
    await page.emulateMedia({ reducedMotion: "reduce" })
    await page.goto(await launch())
    await page.locator("#game:not([hidden]) #play").waitFor()
    const results: Record<string, string> = {}
    for (const definition of definitions) {
      const { id, controls } = definition
      await tabTo(page, "#to-lobby")
      await page.keyboard.press("Enter")
      await page.locator("#lobby:not([hidden])").waitFor()
      await tabTo(page, `.tile[data-game='${id}']`)
      await page.keyboard.press("Enter")
      await page.locator("#game:not([hidden]) #play").waitFor()
      // The game's controls are built once the page keeps it as the session's game.
      await until(page, `JSON.parse(sessionStorage.getItem("gateway.play.session")).game === ${JSON.stringify(id)}`)
      if (controls.kind === "choices") {
        // The last choice: Tab to it and Space.
        await tabTo(page, "#controls .choice:last-child")
        await page.keyboard.press("Space")
        assert.strictEqual(await page.locator("#controls .choice[aria-pressed=true]").getAttribute("data-value"), JSON.stringify(controls.choices.at(-1)?.[0]), id)
      } else {
        // Into the grid (one tab stop), Home, the arrow to 2 and Space.
        await tabTo(page, "#controls .cell")
        await page.keyboard.press("Home")
        await page.keyboard.press("ArrowRight")
        await page.keyboard.press("Space")
        assert.strictEqual(await page.locator("#controls .cell[data-n='2']").getAttribute("aria-pressed"), "true", id)
      }
      await tabTo(page, "#play")
      await page.keyboard.press("Enter")
      await played(page)
      const result = page.locator("#result.win, #result.loss")
      results[id] = await result.innerText()
      assert.match(results[id] ?? "", /You win [\d,.]+ ETB!|No win this time/, id)
      await page.locator("#result").evaluate((e) => e.removeAttribute("class"))
    }
    assert.sameMembers(Object.keys(results), definitions.map((d) => d.id))
    await page.close()
  })
})

/** The page's visible text and the names given to assistive technology (aria-label, placeholder, alt). */
const allText = (page: Page): Promise<string> =>
  page.evaluate(`(() => [document.body.innerText, ...[...document.querySelectorAll("[aria-label],[placeholder],img[alt]")]
    .filter((e) => !e.closest("[hidden]"))
    .map((e) => [e.getAttribute("aria-label"), e.getAttribute("placeholder"), e.getAttribute("alt")].filter(Boolean).join(" "))].join("\\n"))()`)

/**
 * The information tabs' row: how many rows its visible items take, the tabs whose text wraps or is cut, and
 * whether every tab can be seen (the row fits, or scrolls sideways to it).
 */
const tabsRow = (page: Page) =>
  page.evaluate(`(() => {
    const bar = document.getElementById("tabs")
    const items = [...bar.children].filter((e) => e.checkVisibility())
    let rows = 0, bottom = -Infinity
    for (const r of items.map((e) => e.getBoundingClientRect()).sort((a, b) => a.top - b.top)) {
      if (r.top >= bottom - 1) rows += 1
      bottom = Math.max(bottom, r.bottom)
    }
    const lines = (e) => { const r = document.createRange(); r.selectNodeContents(e); return new Set([...r.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top))).size }
    const wrapped = [...bar.querySelectorAll("button")].filter((b) => b.checkVisibility() && b.textContent.trim() !== "")
      .filter((b) => lines(b) > 1 || b.scrollWidth > b.clientWidth + 1).map((b) => b.id)
    const reachable = bar.scrollWidth <= bar.clientWidth + 1 || /auto|scroll/.test(getComputedStyle(bar).overflowX)
    return { rows, wrapped, reachable }
  })()`)

/** The fonts Chromium drew an element's text with (DevTools protocol `CSS.getPlatformFontsForNode`). */
const fontsOf = async (page: Page, selector: string): Promise<Array<string>> => {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("DOM.enable")
  await cdp.send("CSS.enable")
  const { root } = await cdp.send("DOM.getDocument")
  const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector })
  const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId })
  await cdp.detach()
  return fonts.map((f) => f.familyName)
}

describe("the page in the launch's language, with its exit and reality check (CONTRACT §3, §12)", () => {
  const lobbyUrl = "https://casino.example/lobby?from=game"
  it("speaks English, French, Amharic and Swahili with no untranslated key, leads back to the casino, and checks in every 5 minutes", async () => {
    const page = await browser.context.newPage()
    await page.emulateMedia({ reducedMotion: "reduce" })
    await page.clock.install()
    const seen: Record<string, string> = {}
    const found: Record<string, Array<string>> = {}
    const tabs: Record<string, unknown> = {}
    let ethiopic: Array<string> = []
    for (const language of ["en", "fr", "am", "sw"]) {
      await page.goto(await launch(`&language=${language}&lobbyUrl=${encodeURIComponent(lobbyUrl)}&realityCheckMinutes=5`))
      await page.locator("#game:not([hidden]) #play").waitFor()
      assert.strictEqual(await page.locator("html").getAttribute("lang"), language)
      await page.locator("#play").click()
      await played(page)
      if (language === "en") {
        // A win is celebrated below the stage (the draw stays in sight), and Escape skips it at once.
        for (let i = 0; i < 12 && await page.locator("#result.win").count() === 0; i++) {
          await page.locator("#play").click()
          await played(page)
        }
        assert.isTrue(await page.locator("#celebrate").isVisible(), "a win is celebrated")
        const [won, stage] = [await page.locator("#celebrate .won").boundingBox(), await page.locator("#stage").boundingBox()]
        assert.isTrue(won !== null && stage !== null && won.y >= stage.y + stage.height, "the celebration leaves the draw in sight")
        // Measured at the end of its animation, where it is largest (scaled 1.15), not at whatever moment this is.
        await page.evaluate(`document.querySelector("#celebrate .burst").getAnimations().forEach((a) => a.finish())`)
        const burst = await page.locator("#celebrate .burst").boundingBox()
        const bottom = page.viewportSize()?.height ?? 0
        assert.isTrue(burst !== null && burst.y + burst.height <= bottom + 1, `the burst stays on the page: ${JSON.stringify(burst)}`)
        const axe: Record<string, Array<string>> = { win: await axeViolations(page) }
        assert.match(await page.locator("#celebrate-amount").innerText(), /^You win [\d,.]+ ETB!$/)
        await page.screenshot({ path: join(resultsDir, "page-win.png") })
        await page.keyboard.press("Escape")
        assert.isTrue(await page.locator("#celebrate").isHidden(), "Escape skips it")
        await page.locator("#tab-history").click()
        await page.locator("#rounds li").first().waitFor()
        await page.locator("#rounds li .rhead").first().click()
        axe["history"] = await axeViolations(page)
        await page.locator("#tab-history").click()
        assert.deepStrictEqual(axe, { win: [], history: [] }, "axe-core: no serious or critical violation")
      }
      await page.keyboard.press("Escape")
      await page.locator("#tab-history").click()
      await page.locator("#rounds li").first().waitFor()
      const text = await allText(page)
      seen[language] = text
      // No catalogue key (camelCase or dotted), no "{placeholder}", nothing undefined shows.
      const keys = text.match(/\b[a-z]+[A-Z][A-Za-z]+\b|\{\w+\}|\bundefined\b|\bNaN\b|\b[a-z]+(?:-[a-z]+)+\.desc\b/g) ?? []
      assert.deepStrictEqual(keys.filter((k) => !["WebCrypto", "clientSeed"].includes(k)), [], language)
      assert.notMatch(text, /operator/i, language)
      // The exit leads to the casino's page, out of the frame.
      assert.strictEqual(await page.locator("#exit").getAttribute("href"), lobbyUrl)
      assert.strictEqual(await page.locator("#exit").getAttribute("target"), "_top")
      assert.isTrue(await page.locator("#exit").isVisible())
      if (language === "fr") {
        assert.include(text, "Historique")
        assert.match(await page.locator("#balance").innerText(), /^\d{1,3}(?:\s\d{3})*,\d{2} ETB$/u, "money in French")
      }
      const misfit = await misfits(page)
      if (misfit.length > 0) found[language] = misfit
      tabs[language] = await tabsRow(page)
      if (language === "am") ethiopic = await fontsOf(page, "#tab-history")
      await page.screenshot({ path: join(resultsDir, `page-language-${language}.png`) })
    }
    // At 360 px the tabs stay one row, every tab's text on one line and whole (the row scrolls if it must).
    for (const language of ["en", "fr", "am", "sw"]) {
      assert.deepStrictEqual(tabs[language], { rows: 1, wrapped: [], reachable: true }, `tabs in ${language}`)
    }
    // Amharic is drawn with an Ethiopic font the stack names (Noto Sans Ethiopic: .ci/run installs fonts-noto-core), not tofu.
    assert.include(ethiopic, "Noto Sans Ethiopic", `the fonts Chromium drew Amharic with: ${ethiopic.join(", ")}`)
    for (const language of ["fr", "am", "sw"]) {
      const en = new Set((seen["en"] ?? "").split(/\s+/))
      const words = (seen[language] ?? "").split(/\s+/).filter((w) => /\p{L}{4,}/u.test(w))
      const english = words.filter((w) => en.has(w))
      // Mostly its own words: names, codes and the fairness terms may be shared.
      assert.isBelow(english.length / words.length, 0.25, `${language}: ${english.slice(0, 20).join(" ")}`)
    }
    assert.deepStrictEqual(found, {})
    // Five minutes in (the Swahili session): the session's time and net result, then continue or leave.
    assert.isTrue(await page.locator("#reality").isHidden())
    await page.clock.fastForward("05:01")
    await page.locator("#reality:not([hidden])").waitFor()
    assert.match(await page.locator("#reality-text").innerText(), /dakika|min/u)
    assert.strictEqual(await page.locator("#reality-leave").getAttribute("href"), lobbyUrl)
    assert.deepStrictEqual(await misfits(page), [])
    assert.deepStrictEqual(await axeViolations(page), [], "axe-core on the reality check")
    await page.screenshot({ path: join(resultsDir, "page-reality-check.png") })
    await page.locator("#reality-continue").click()
    assert.isTrue(await page.locator("#reality").isHidden())
    await page.close()
    // An error screen leads back to the casino too: a used link opened elsewhere (without the resume cookie of
    // the browser that redeemed it, which would resume the session), in its language.
    const used = await launch(`&language=sw&lobbyUrl=${encodeURIComponent(lobbyUrl)}`)
    const first = await browser.context.newPage()
    await first.goto(used)
    await first.locator("#game:not([hidden]) #play").waitFor()
    await first.close()
    await browser.context.clearCookies()
    const again = await browser.context.newPage()
    await again.goto(used)
    await again.locator("#notice:not([hidden])").waitFor()
    assert.strictEqual(await again.locator("#notice-title").innerText(), "Kiungo hiki kimeshatumika")
    assert.strictEqual(await again.locator("#notice-exit").getAttribute("href"), lobbyUrl)
    assert.strictEqual(await again.locator("#notice-exit").innerText(), "Rudi kwenye kasino")
    assert.deepStrictEqual(await axeViolations(again), [], "axe-core on an error screen")
    await again.screenshot({ path: join(resultsDir, "page-error-exit.png") })
    await again.close()
  })
})
