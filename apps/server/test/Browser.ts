import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"
import { assert } from "vitest"
import { adminToken, call } from "@gateway/adapters-http/testing"
import type { Gateway } from "../testing/Gateway.ts"
import type { WalletReply } from "./Wallet.ts"

/** Debian's Chromium, which the browser test drives (`.ci/run` installs it when missing). */
export const chromiumPath = "/usr/bin/chromium"

/** Where the browser test saves its screenshots (git-ignored). */
export const resultsDir = join(import.meta.dirname, "..", "..", "..", "test-results")

/**
 * A fresh headless Chromium profile with a viewport; fails with how to
 * install Chromium when it is missing — the browser test never skips.
 */
export const launchChromium = async (viewport: { readonly width: number; readonly height: number }) => {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is missing at ${chromiumPath}: the browser test needs it. Install it with \`apt-get install -y chromium\` ` +
        "(Debian/Ubuntu, as root; .ci/run does this when it can)."
    )
  }
  mkdirSync(resultsDir, { recursive: true })
  const profile = mkdtempSync(join(tmpdir(), "gateway-chromium-"))
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  }
}

/**
 * An operator's site on another loopback origin (`http://localhost:<port>`,
 * another site than the gateway's 127.0.0.1): `/embed/<name>` is a page whose
 * only content is the game in a full-size iframe.
 */
export const startOperatorSite = async () => {
  const frames = new Map<string, string>()
  const server = createServer((req, res) => {
    const src = frames.get((req.url ?? "").replace(/^\/embed\//, ""))
    if (src === undefined) {
      res.writeHead(404).end()
      return
    }
    const attr = src.replace(/&/g, "&amp;").replace(/"/g, "&quot;")
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(`<!doctype html><html><head><title>Casino</title><style>html,body{margin:0;height:100%;background:#000}` +
      `iframe{display:block;border:0;width:100%;height:100%}</style></head>` +
      `<body><iframe id="game" title="Game" src="${attr}"></iframe></body></html>`)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    origin: `http://localhost:${port}`,
    /** The same site under another origin (127.0.0.1), which a merchant's `frameAncestors` may leave out. */
    otherOrigin: `http://127.0.0.1:${port}`,
    /** The URL of a page framing `src`. */
    embed: (name: string, src: string) => {
      frames.set(name, src)
      return `http://localhost:${port}/embed/${name}`
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

const toMinor = (amount: string) => {
  const [whole = "0", fraction = ""] = amount.split(".")
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2))
}
const format = (minor: bigint) => `${minor / 100n}.${(minor % 100n).toString().padStart(2, "0")}`

/**
 * A wallet in ETB that keeps a balance, as a real operator does: a debit
 * takes the amount (402 when short), a credit adds it, a refund returns a
 * debit it took; a repeated transactionId gets its first answer. `failDebits`
 * answers debits with that status instead.
 */
export const ledgerWallet = (opening: string) => {
  let balance = toMinor(opening)
  const answers = new Map<string, { readonly status: number; readonly body: unknown }>()
  const taken = new Set<string>()
  const state = { failDebits: 0 }
  const reply: WalletReply = (_received, message) => {
    const id = message.data.transactionId
    const known = answers.get(id)
    if (known !== undefined) return known
    const amount = toMinor(message.data.amount)
    let answer: { readonly status: number; readonly body: unknown }
    if (message.type === "transaction.debit" && state.failDebits !== 0) {
      answer = { status: state.failDebits, body: { error: "refused by the test" } }
    } else if (message.type === "transaction.debit") {
      if (amount > balance) answer = { status: 402, body: { error: "insufficient funds" } }
      else {
        balance -= amount
        taken.add(id)
        answer = { status: 200, body: { balance: format(balance) } }
      }
    } else {
      const ref = message.data.refTransactionId ?? ""
      if (message.type === "transaction.credit" || taken.delete(ref)) balance += amount
      answer = { status: 200, body: { balance: format(balance) } }
    }
    answers.set(id, answer)
    return answer
  }
  return { reply, state, balance: () => format(balance) }
}

/**
 * A merchant of its own on `gw` (`name` makes its company, e-mail and players), and a function that asks for a
 * new demo launch of odd-even for it each time: the URL to open.
 */
export const demoLauncher = async (
  gw: Gateway,
  name: string
): Promise<((query?: string) => Promise<string>) & { readonly key: string; readonly playerId: string }> => {
  const admin = { authorization: `Bearer ${await adminToken(gw.authSecret)}` }
  const api = `${gw.url}/api/v1.1/operator-api`
  const merchant = await call(`${api}/create`, {
    method: "POST",
    headers: admin,
    json: { countryCodes: ["ET"], companyName: `${name} Casino`, email: `${name.toLowerCase()}@example.com`, providerId: 1 }
  })
  assert.strictEqual(merchant.status, 201, merchant.text)
  const key = (await call(`${api}/merchants/${merchant.body.id}/api-keys`, { method: "POST", headers: admin })).body.apiKey
  const player = name.toLowerCase()
  let sessions = 0
  const launch = async (query = "") => {
    const launched = await call(
      `${api}/games/generate-launch-url?gameId=odd-even&playerId=${player}-1&sessionId=${player}-${++sessions}&mode=demo${query}`,
      { headers: { "sv-api-key": key } }
    )
    assert.strictEqual(launched.status, 200, launched.text)
    return String(launched.body.url)
  }
  return Object.assign(launch, { key: String(key), playerId: `${player}-1` })
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/**
 * The serious and critical accessibility violations axe-core finds in what the page shows now (WCAG 2.1 A/AA),
 * each as "rule: target". The page's CSP refuses script tags; axe runs through Playwright's evaluate instead.
 */
export const axeViolations = async (page: Page): Promise<Array<string>> => {
  await page.evaluate(`${axeSource};0`)
  const found: Array<{ id: string; impact: string | null; nodes: Array<{ target: Array<string> }> }> = await page.evaluate(
    `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })
      .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target })) })))`
  )
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`))
}
