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

  it("leaves no script or style sheet source in a string of the server's TypeScript", () => {
    const offences: Array<string> = []
    for (const dir of ["packages/adapters-http/src", "packages/adapters-operator/src", "packages/adapters-pg/src", "apps/server/src"]) {
      for (const file of tsFiles(join(root, dir))) {
        const text = readFileSync(file, "utf8")
        if (/String\.raw`/.test(text)) offences.push(`${file}: String.raw`)
        if (/addEventListener\(|document\.getElementById|@keyframes|@media \(/.test(text)) offences.push(`${file}: browser code or CSS`)
      }
    }
    expect(offences).toEqual([])
  })
})
