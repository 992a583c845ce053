import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { installTarballs } from "./Tarballs.ts"

/**
 * `@gateway/domain` as another team installs it: built (`packages/domain/build.ts`), packed with `npm pack`,
 * installed from the tarball into a blank project outside the workspace, then used from plain `node` and from a
 * TypeScript file type-checked with the settings `tsc --init` writes (strict).
 */
const root = join(import.meta.dirname, "..")
const tsc = join(root, "node_modules", ".bin", "tsc")
const work = mkdtempSync(join(tmpdir(), "gateway-domain-package-"))
const project = join(work, "consumer")
const run = promisify(execFile)
const quiet = { cwd: project, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: "false" } }

const failureText = (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`

beforeAll(() => installTarballs(["domain"], work, project), 240_000)

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("@gateway/domain installed from its tarball", () => {
  it("runs with plain node", async () => {
    const { stdout } = await run(process.execPath, [
      "-e",
      "import(\"@gateway/domain\").then(m => console.log(m.Money.format(m.Money.make(1250n, \"EUR\"))))"
    ], quiet)
    expect(stdout).toBe("12.50\n")
  })

  it("loads its testing doubles", async () => {
    const { stdout } = await run(process.execPath, [
      "-e",
      "import(\"@gateway/domain/testing\").then(m => console.log(typeof m.merchantRepo))"
    ], quiet)
    expect(stdout).toBe("function\n")
  })

  it("type-checks a TypeScript consumer with tsc --init's strict settings, and refuses a wrong one", async () => {
    writeFileSync(
      join(project, "consumer.ts"),
      [
        `import { Schema } from "effect"`,
        `import { Currency, Money } from "@gateway/domain"`,
        `import * as Testing from "@gateway/domain/testing"`,
        `const eur = Schema.decodeUnknownSync(Currency.CurrencyCode)("EUR")`,
        `export const price: string = Money.format(Money.make(1250n, eur))`,
        `export const repo = Testing.merchantRepo`
      ].join("\n")
    )
    const checked = await run(tsc, ["-p", ".", "--noEmit"], quiet).then(() => "", failureText)
    expect(checked).toBe("")
    writeFileSync(join(project, "consumer.ts"), `import { Money } from "@gateway/domain"\nexport const price = Money.make(1250, "EUR")\n`)
    const refused = await run(tsc, ["-p", ".", "--noEmit"], quiet).then(() => "", failureText)
    expect(refused).toMatch(/consumer\.ts.*error TS2345/)
  })

  it("type-checks every example of the package README as it is written, and runs those that need no request", async () => {
    const readme = readFileSync(join(root, "packages", "domain", "README.md"), "utf8")
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "")
    expect(blocks.length).toBeGreaterThanOrEqual(5)
    rmSync(join(project, "consumer.ts"), { force: true })
    // The one name the examples leave to the reader: the incoming request of the API key example
    const request = "declare const request: { readonly headers: Record<string, string | undefined> }"
    const files = blocks.map((block, i) => {
      const file = `readme${i}.ts`
      writeFileSync(join(project, file), block.includes("request.") ? `${block}\n${request}\n` : block)
      return { file, runs: !block.includes("request.") }
    })
    const checked = await run(tsc, ["-p", ".", "--noEmit"], quiet).then(() => "", failureText)
    expect(checked).toBe("")
    for (const { file } of files.filter((f) => f.runs)) {
      const ran = await run(process.execPath, [file], quiet).then(() => "", failureText)
      expect(ran, file).toBe("")
    }
  })
})
