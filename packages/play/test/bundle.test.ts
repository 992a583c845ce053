import { describe, expect, it } from "vitest"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { playAssets } from "../assets.ts"

const KB = 1024
const root = join(import.meta.dirname, "..", "..", "..")

const tsFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === "node_modules" || e.name === "dist" ? [] :
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [])

describe("the player's page bundle", () => {
  it("keeps JS and CSS together under 100 KB minified (sizes printed, gzip too)", () => {
    const { script, style } = playAssets()
    const raw = { js: Buffer.byteLength(script), css: Buffer.byteLength(style) }
    const gz = { js: gzipSync(script, { level: 9 }).length, css: gzipSync(style, { level: 9 }).length }
    const kb = (n: number) => (n / KB).toFixed(1) + " KB"
    console.log(
      `play bundle: JS ${kb(raw.js)} + CSS ${kb(raw.css)} = ${kb(raw.js + raw.css)} minified; ` +
        `gzip -9: JS ${kb(gz.js)} + CSS ${kb(gz.css)} = ${kb(gz.js + gz.css)}`
    )
    expect(raw.js).toBeGreaterThan(10 * KB)
    expect(raw.css).toBeGreaterThan(4 * KB)
    expect(raw.js + raw.css).toBeLessThan(100 * KB)
    expect(() => new Function(script)).not.toThrow()
  })

  it("leaves no script or style sheet source in a string of the TypeScript, server, shared or browser", () => {
    const offences: Array<string> = []
    const scan = (dirs: ReadonlyArray<string>, forbidden: RegExp) => {
      for (const dir of dirs) {
        for (const file of tsFiles(join(root, dir))) {
          const text = readFileSync(file, "utf8")
          // No String.raw at all: a regular expression is a literal (its `.source` when spliced into another).
          if (/String\.raw`/.test(text)) offences.push(`${file}: String.raw`)
          if (forbidden.test(text)) offences.push(`${file}: ${forbidden.source}`)
        }
      }
    }
    // The server's and the shared packages' code never touches a document, nor holds CSS.
    scan(
      ["packages/adapters-http/src", "packages/adapters-operator/src", "packages/adapters-pg/src", "apps/server/src", "packages/domain/src", "packages/client/src"],
      /addEventListener\(|document\.getElementById|@keyframes|@media \(|new Function\(/
    )
    // The browser's packages are TypeScript modules and CSS files: no markup, style sheet or code in a string.
    scan(["packages/play/src", "packages/backoffice/src"], /<script|<style|@keyframes|@media \(|new Function\(|\beval\(/)
    expect(offences).toEqual([])
  })
})
