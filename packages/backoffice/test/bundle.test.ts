import { describe, expect, it } from "vitest"
import { gzipSync } from "node:zlib"
import { backofficeAssets } from "../assets.ts"

const KB = 1024

describe("the back office's bundle", () => {
  it("keeps JS and CSS together under 100 KB minified (sizes printed, gzip too), without effect", () => {
    const { script, style } = backofficeAssets()
    const raw = { js: Buffer.byteLength(script), css: Buffer.byteLength(style) }
    const gz = { js: gzipSync(script, { level: 9 }).length, css: gzipSync(style, { level: 9 }).length }
    const kb = (n: number) => (n / KB).toFixed(1) + " KB"
    console.log(
      `backoffice bundle: JS ${kb(raw.js)} + CSS ${kb(raw.css)} = ${kb(raw.js + raw.css)} minified; ` +
        `gzip -9: JS ${kb(gz.js)} + CSS ${kb(gz.css)} = ${kb(gz.js + gz.css)}`
    )
    expect(raw.js).toBeGreaterThan(10 * KB)
    expect(raw.css).toBeGreaterThan(2 * KB)
    expect(raw.js + raw.css).toBeLessThan(100 * KB)
    expect(script).not.toMatch(/effect\/Schema|ParseIssue/)
    expect(() => new Function(script)).not.toThrow()
  })
})
