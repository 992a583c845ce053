import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const src = join(import.meta.dirname, "..", "src")
const files = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  )

describe("domain purity", () => {
  it("imports nothing but effect (no http, sql or node modules) and its own files", () => {
    const all = files(src)
    assert.isAbove(all.length, 10)
    for (const file of all) {
      const specifiers = [...readFileSync(file, "utf8").matchAll(/\bfrom\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)]
        .map((m) => m[1] ?? m[2] ?? "")
      for (const specifier of specifiers) {
        assert.isTrue(
          specifier === "effect" || specifier.startsWith("./") ||
            specifier.startsWith("../"),
          `${file} imports ${specifier}`
        )
      }
    }
  })

  it("keeps the games' definitions and the catalogue free of effect (type imports aside), so a browser page may import them", () => {
    const runtime = (file: string) =>
      [...readFileSync(file, "utf8").matchAll(/^import (?!type )[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1] ?? "")
    const seen = new Set<string>()
    const visit = (file: string): void => {
      if (seen.has(file)) return
      seen.add(file)
      for (const specifier of runtime(file)) {
        assert.notStrictEqual(specifier, "effect", `${file} imports effect`)
        visit(join(file, "..", specifier))
      }
    }
    for (const file of ["BuiltinGames.ts", "games/ProfitFields.ts", "games/RtpRange.ts"]) visit(join(src, file))
    assert.include([...seen], join(src, "games", "engines", "MegaTen.ts"))
  })
})
