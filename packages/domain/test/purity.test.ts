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
})
