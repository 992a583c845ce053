import { call } from "@gateway/adapters-http/testing"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCli } from "../testing/Cli.ts"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"
import { poll } from "./Wallet.ts"

/**
 * The ops CLI (`bin/gateway` of the release: `apps/server/dist/cli.mjs`) as an operator runs it, on the database of a running gateway: a wrong
 * invocation says what is wrong in one line, every option says its default, and the merchant, API key and
 * delivery commands change what the gateway answers.
 */
const scope = Effect.runSync(Scope.make())
let env: Record<string, string> = {}
let gw: Gateway

const run = (...args: ReadonlyArray<string>) => runCli(args, env)

const json = async (...args: ReadonlyArray<string>): Promise<any> => {
  const ran = await run(...args)
  expect(ran.stderr).toBe("")
  expect(ran.code).toBe(0)
  return JSON.parse(ran.stdout)
}

beforeAll(async () => {
  const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
  env = {
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    AUTH_JWT_SECRET: randomBytes(32).toString("base64url")
  }
  gw = await spawnGateway({ ...env, ALLOW_PRIVATE_OPERATOR_URLS: "true", WEBHOOK_RETRY_SCHEDULE: "0.1", WEBHOOK_TIMEOUT_MS: "500" })
}, 120_000)

afterAll(async () => {
  await gw?.stop("SIGKILL")
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

describe("the ops CLI", () => {
  it("says what is wrong with an invocation in one line and where the usage is, not the whole help, and exits 1", async () => {
    const cases: Array<[ReadonlyArray<string>, RegExp]> = [
      [["frobnicate"], /^error: Unknown subcommand "frobnicate" for "gateway"\nusage: gateway --help\n$/],
      [["token", "issue", "--scope", "admin"], /^error: Invalid value for flag --scope: "admin".*\nusage: gateway token issue --help\n$/],
      [["merchant", "status", "1", "frozen"], /^error: .*frozen.*\nusage: gateway merchant status --help\n$/],
      [["api-key", "revoke", "1"], /^error: .*slug.*\nusage: gateway api-key revoke --help\n$/]
    ]
    const runs = await Promise.all(cases.map(([args]) => run(...args)))
    cases.forEach(([args, expected], i) => {
      const ran = runs[i]
      expect([args.join(" "), ran?.code, ran?.stdout]).toEqual([args.join(" "), 1, ""])
      expect(ran?.stderr).toMatch(expected)
    })
  })

  it("describes every option of every command with its default (or says it is required)", async () => {
    const commands = [
      ["token", "issue"], ["merchant", "create"], ["merchant", "list"], ["merchant", "show"], ["merchant", "status"],
      ["api-key", "issue"], ["api-key", "list"], ["api-key", "revoke"], ["deliveries", "list"], ["deliveries", "redeliver"]
    ]
    const undescribed: Array<string> = []
    let described = 0
    // three at a time: each run loads the CLI's sources (~2.5 s of one core)
    for (let i = 0; i < commands.length; i += 3) {
      const helps = await Promise.all(commands.slice(i, i + 3).map(async (command) => [command, (await run(...command, "--help")).stdout] as const))
      for (const [command, help] of helps) {
        const flags = help.slice(help.indexOf("\nFLAGS\n"), help.indexOf("\nGLOBAL FLAGS\n"))
        for (const line of flags.split("\n").filter((l) => l.trimStart().startsWith("--"))) {
          described++
          if (!/\((default|required)[ ;:)]/.test(line)) undescribed.push(`${command.join(" ")}: ${line.trim()}`)
        }
      }
    }
    expect(undescribed).toEqual([])
    expect(described).toBeGreaterThanOrEqual(14)
  })

  it("merchant create|list|show|status and api-key issue|list|revoke change what the gateway answers", async () => {
    const created = await json("merchant", "create", "--country", "ET", "--company", "Cli Co", "--email", "cli@example.com")
    const id = String(created.id)
    const listed = await json("merchant", "list", "--search", "CLI co", "--limit", "5")
    expect(listed.data.map((m: { id: number }) => m.id)).toEqual([created.id])
    expect(listed.meta.totalElements).toBe(1)
    const shown = await json("merchant", "show", id)
    expect([shown.companyName, shown.accountStatus, "encryptionKey" in shown]).toEqual(["Cli Co", "active", false])
    expect(await run("merchant", "show", "999")).toEqual({ code: 1, stdout: "", stderr: "error: no merchant with id 999\n" })

    const { apiKey, slug } = await json("api-key", "issue", id)
    const games = () => call(`${gw.url}/api/v1.1/operator-api/games`, { headers: { "sv-api-key": apiKey } })
    expect((await games()).status).toBe(200)
    const keys = await json("api-key", "list", id)
    expect(keys).toEqual([{ slug, prefix: "sv_live", createdAt: expect.any(String), revokedAt: null }])
    expect(JSON.stringify(keys)).not.toContain(apiKey.split(".")[1])

    expect(await json("merchant", "status", id, "suspended")).toEqual({ id: created.id, accountStatus: "suspended" })
    expect((await poll(games, (a) => a.status !== 200, 10_000)).status).toBe(403)
    expect(await json("merchant", "status", id, "active")).toEqual({ id: created.id, accountStatus: "active" })
    expect((await poll(games, (a) => a.status === 200, 10_000)).status).toBe(200)

    expect(await json("api-key", "revoke", id, slug)).toEqual({ slug, revoked: true })
    expect((await poll(games, (a) => a.status !== 200, 10_000)).status).toBe(401)
    expect((await json("api-key", "list", id))[0].revokedAt).toEqual(expect.any(String))
    expect(await run("api-key", "revoke", id, slug)).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: merchant ${id} has no live API key with slug "${slug}"\n`
    })
  })

  it("deliveries list shows a message whose retries are used up, and redeliver queues it again", async () => {
    const created = await json("merchant", "create", "--country", "ET", "--company", "Down Co", "--email", "down@example.com")
    const id = String(created.id)
    const token = (await run("token", "issue", "--scope", "write:users")).stdout.trim()
    const admin = { authorization: `Bearer ${token}` }
    const base = `${gw.url}/api/v1.1/operator-api/merchants/${id}`
    // a wallet nobody listens on: the ping fails, is retried once after 0.1 s, then is failed
    expect((await call(`${base}/settings`, { method: "PUT", headers: admin, json: { webhookUrl: "http://127.0.0.1:9/wallet" } })).status).toBe(200)
    const ping = await call(`${base}/webhook-test`, { method: "POST", headers: admin })
    expect(ping.status).toBe(202)
    const [failed] = await poll(() => json("deliveries", "list", id, "--status", "failed"), (l) => l.length === 1, 20_000)
    expect([failed.id, failed.type, failed.status]).toEqual([ping.body.deliveryId, "webhook.test", "failed"])
    expect(await json("deliveries", "list", id, "--status", "delivered")).toEqual([])

    expect(await json("deliveries", "redeliver", id, failed.id)).toEqual({ id: failed.id, status: "pending" })
    const again = await run("deliveries", "redeliver", id, "no-such-delivery")
    expect([again.code, again.stderr]).toEqual([1, `error: merchant ${id} has no failed webhook delivery with id "no-such-delivery"\n`])
  })
})
