import { describe, expect, it } from "vitest"
import { builtinGames } from "@gateway/domain/BuiltinGames"
import { playAssets } from "@gateway/play/assets"
import { gameImage } from "../src/page/GameImages.ts"
import { contentSecurityPolicy, renderPage } from "../src/page/PlayPage.ts"

const page = renderPage({ gameId: "lotto", gameName: "Lotto", token: "t", nonce: "bm9uY2U=" }, playAssets())
const inline = (tag: "script" | "style") =>
  [...page.matchAll(new RegExp(`<${tag} nonce="[^"]+">([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1] ?? "")

describe("the game page", () => {
  it("carries all its code inline, JS and CSS together under 100 KB, with no external script or style", () => {
    const scripts = inline("script")
    const styles = inline("style")
    expect(scripts).toHaveLength(1)
    expect(styles).toHaveLength(1)
    const bytes = Buffer.byteLength(scripts.join("") + styles.join(""))
    expect(bytes).toBeGreaterThan(10_000)
    expect(bytes).toBeLessThan(100 * 1024)
    expect(page).not.toMatch(/<(script|link)[^>]+(src|href)=["']?https?:/)
    expect(page).not.toMatch(/\sstyle=/)
    expect(() => new Function(scripts[0] ?? "")).not.toThrow()
  })

  it("frames for the merchant's frame-ancestors, * by default, and never lets a value reach another directive", () => {
    const policy = (frameAncestors: string) =>
      contentSecurityPolicy("n", { frameAncestors }).split("; ").find((d) => d.startsWith("frame-ancestors"))
    expect(contentSecurityPolicy("n")).toContain("frame-ancestors *")
    expect(policy("https://casino.example 'self'")).toBe("frame-ancestors https://casino.example 'self'")
    expect(policy("'none'")).toBe("frame-ancestors 'none'")
    expect(policy("https://a.example; script-src *")).toBe("frame-ancestors *")
    expect(policy("https://a.example\r\nx-evil: 1")).toBe("frame-ancestors *")
    const csp = contentSecurityPolicy("abc", { frameAncestors: "*", fontStylesheet: "https://fonts.example" })
    expect(csp).toContain("style-src 'nonce-abc' https://fonts.example")
    expect(csp).toContain("script-src 'nonce-abc';")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("img-src 'self' https: data:")
    expect(csp).not.toContain("unsafe-inline")
  })

  it("draws an SVG image for every built-in game, with its name", () => {
    for (const game of builtinGames) {
      const svg = gameImage(`${game.id}.svg`) ?? ""
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/)
      expect(svg).toContain(`>${game.name}</text>`)
      expect(svg).not.toMatch(/<script|href=|on\w+=/i)
    }
    expect(gameImage("odd-even.png")).toBeUndefined()
  })
})
