import { OpenApi } from "effect/http-api"
import openapiTS from "openapi-typescript"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { Api } from "@gateway/client/api/Api"

/**
 * An integrator generates TypeScript types from `/openapi.json` with openapi-typescript and compiles them with
 * `tsc --strict`: the types must compile, and every example of the document must be a value of its type (so the
 * examples and the generated types agree on the wire format).
 */
const root = join(import.meta.dirname, "..", "..", "..")
const tsc = join(root, "node_modules", ".bin", "tsc")
const dir = mkdtempSync(join(tmpdir(), "gateway-openapi-types-"))
const doc: any = OpenApi.fromApi(Api)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

const typecheck = (files: ReadonlyArray<string>) =>
  promisify(execFile)(tsc, ["--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", ...files], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024
  }).then(() => "", (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`)

describe("openapi-typescript's types of the document", () => {
  it("compile with tsc --strict and type every example", async () => {
    const types = await openapiTS(doc)
    writeFileSync(join(dir, "api.d.ts"), types)
    const named = Object.entries<any>(doc.components.schemas)
      .filter(([, schema]) => Array.isArray(schema.examples))
      .map(([name, schema]) =>
        `export const ${name}Example: components["schemas"][${JSON.stringify(name)}] = ${JSON.stringify(schema.examples[0])}`
      )
    const consumer = [
      `import type { components, paths, webhooks } from "./api.d.ts"`,
      ...named,
      `type Launch = paths["/api/v1.1/operator-api/games/generate-launch-url"]["get"]`,
      `export const query: Launch["parameters"]["query"] = { gameId: "odd-even", playerId: "player-1001", sessionId: "s-1" }`,
      `export const url: Launch["responses"]["200"]["content"]["application/json"]["url"] = "https://gateway.example/play"`,
      `type Debit = webhooks["transaction.debit"]["post"]["requestBody"]`,
      `export const amount: NonNullable<Debit>["content"]["application/json"]["data"]["amount"] = "5.00"`
    ].join("\n")
    writeFileSync(join(dir, "consumer.ts"), `${consumer}\n`)
    expect(named.length).toBeGreaterThan(40)
    expect(await typecheck(["api.d.ts", "consumer.ts"])).toBe("")
  })

  it("reject a value the document does not allow", async () => {
    writeFileSync(
      join(dir, "wrong.ts"),
      `import type { components } from "./api.d.ts"\n` +
        `export const status: components["schemas"]["StatusChange"]["accountStatus"] = "deleted"\n`
    )
    expect(await typecheck(["api.d.ts", "wrong.ts"])).toMatch(/wrong\.ts.*"deleted"/)
  })
})
