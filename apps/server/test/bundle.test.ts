import { describe, expect, it } from "vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"

/** The bundles the test run builds (vitest.global-setup.ts), as `npm ci` does. */
const dist = join(import.meta.dirname, "..", "dist")

describe("the server's and the CLI's bundles", () => {
  // One character above U+00FF makes V8 hold the whole source in two bytes a character (build.ts, `asciiOnly`).
  it.each(["server.cjs", "ops.mjs"])("%s is ASCII, its comments' other characters written as \\u escapes", (name) => {
    const bytes = readFileSync(join(dist, name))
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1)
    // undici's comments name "request’s" URL: the bundle carries them, escaped.
    expect(bytes.toString("latin1")).toContain("request\\u2019s")
  })
})
