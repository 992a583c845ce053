import { mint } from "@gateway/adapters-http/middleware/AdminAuth"
import { call } from "@gateway/adapters-http/testing"
import { json as answer, type Received, startOperator } from "@gateway/adapters-operator/testing"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { createPublicKey, randomBytes, verify } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { Webhook } from "standardwebhooks"
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
  const databaseUrl = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedMigratedDatabaseUrl)))
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
      ["api-key", "issue"], ["api-key", "list"], ["api-key", "revoke"], ["deliveries", "list"], ["deliveries", "redeliver"],
      ["secrets", "rotate"], ["secrets", "reveal"]
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
    expect(described).toBeGreaterThanOrEqual(16)
  })

  it("--version prints the version of package.json", async () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8"))
    const ran = await run("--version")
    expect([ran.code, ran.stdout.trim()]).toEqual([0, `gateway v${manifest.version}`])
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

/** Whether one of the message's `v1a` signatures verifies with the Ed25519 `publicKey` (PEM). */
const signedBy = (publicKey: string, message: Received) => {
  const content = `${message.headers["webhook-id"]}.${message.headers["webhook-timestamp"]}.${message.body}`
  return String(message.headers["webhook-signature"]).split(" ").filter((s) => s.startsWith("v1a,")).some((s) =>
    verify(null, Buffer.from(content), createPublicKey(publicKey), Buffer.from(s.slice(4), "base64"))
  )
}

/** Whether the message verifies with the `standardwebhooks` package and the secret `whsec_…`. */
const verifiesWith = (secret: string, message: Received) => {
  try {
    new Webhook(secret).verify(message.body, {
      "webhook-id": String(message.headers["webhook-id"]),
      "webhook-timestamp": String(message.headers["webhook-timestamp"]),
      "webhook-signature": String(message.headers["webhook-signature"])
    })
    return true
  } catch {
    return false
  }
}

describe("rotating a merchant's signing secrets, and the audit log", () => {
  it("both secrets sign every call during the overlap, only the new ones after; every change is audited, secrets never shown", async () => {
    const operator = await startOperator((r, res) =>
      r.url === "/details"
        ? answer(res, 200, { playerId: JSON.parse(r.body).playerId, currency: "ETB", balance: "10.00" })
        : answer(res, 200, { balance: "10.00" })
    )
    try {
      const token = await Effect.runPromise(mint({
        secret: Redacted.make(env["AUTH_JWT_SECRET"] ?? ""),
        scopes: ["read:users", "write:users"],
        subject: "alice@ops"
      }))
      const admin = { authorization: `Bearer ${token}` }
      const api = `${gw.url}/api/v1.1/operator-api`
      const created = await call(`${api}/create`, {
        method: "POST",
        headers: admin,
        json: { countryCodes: ["ET"], companyName: "Rota Co", email: "rota@example.com", providerId: 1 }
      })
      expect(created.status).toBe(201)
      const { id, encryptionKey: oldSecret, publicKey: oldPublic, privateKey } = created.body
      const base = `${api}/merchants/${id}`
      const urls = { webhookUrl: `${operator.url}/wallet`, userDetailsUrl: `${operator.url}/details` }
      expect((await call(`${base}/settings`, { method: "PUT", headers: admin, json: urls })).status).toBe(200)
      const apiKey = (await call(`${base}/api-keys`, { method: "POST", headers: admin })).body.apiKey

      const ping = async () => {
        const queued = await call(`${base}/webhook-test`, { method: "POST", headers: admin })
        expect(queued.status).toBe(202)
        const isIt = (r: Received) => r.headers["webhook-id"] === queued.body.deliveryId
        await poll(async () => operator.received.some(isIt), (seen) => seen, 10_000)
        return operator.received.find(isIt)!
      }
      const details = async () => {
        const before = operator.received.length
        const launch = await call(
          `${api}/games/generate-launch-url?gameId=odd-even&playerId=p-1&sessionId=s-${before}&mode=real`,
          { headers: { "sv-api-key": apiKey } }
        )
        expect(launch.status).toBe(200)
        return operator.received.slice(before).find((r) => r.url === "/details")!
      }

      // the Ed25519 pair through the CLI, then the webhook secret through the admin API
      const bySigning = await json("secrets", "rotate", String(id), "--secret", "signingKey", "--overlap-seconds", "6")
      expect(bySigning.previousPublicKey).toBe(oldPublic)
      const newPublic: string = bySigning.publicKey
      expect(newPublic).toMatch(/^-----BEGIN PUBLIC KEY-----/)
      expect(bySigning).not.toHaveProperty("encryptionKey")
      expect((await call(base, { headers: admin })).body.publicKey).toBe(newPublic)
      const rotated = await call(`${base}/secrets/rotate`, {
        method: "POST",
        headers: admin,
        json: { secret: "encryptionKey", overlapSeconds: 4 }
      })
      expect(rotated.status).toBe(200)
      const newSecret: string = rotated.body.encryptionKey
      expect(newSecret).toMatch(/^whsec_/)
      expect(newSecret).not.toBe(oldSecret)

      for (const during of [await ping(), await details()]) {
        expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(4)
        expect([verifiesWith(oldSecret, during), verifiesWith(newSecret, during)]).toEqual([true, true])
        expect([signedBy(oldPublic, during), signedBy(newPublic, during)]).toEqual([true, true])
      }

      const overlapEnd = Math.max(Date.parse(bySigning.overlapUntil), Date.parse(rotated.body.overlapUntil))
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, overlapEnd - Date.now()) + 200))
      for (const after of [await ping(), await details()]) {
        expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(2)
        expect([verifiesWith(oldSecret, after), verifiesWith(newSecret, after)]).toEqual([false, true])
        expect([signedBy(oldPublic, after), signedBy(newPublic, after)]).toEqual([false, true])
      }

      const revealed = await call(`${base}/secrets/reveal`, { method: "POST", headers: admin })
      expect([revealed.status, revealed.body]).toEqual([200, { encryptionKey: newSecret }])
      const readOnly = { authorization: `Bearer ${await Effect.runPromise(mint({ secret: Redacted.make(env["AUTH_JWT_SECRET"] ?? ""), scopes: ["read:users"] }))}` }
      expect((await call(`${base}/secrets/reveal`, { method: "POST", headers: readOnly })).status).toBe(403)
      expect((await call(`${base}/status`, { method: "PATCH", headers: admin, json: { accountStatus: "closed" } })).status).toBe(200)
      expect((await call(`${base}/status`, { method: "PATCH", headers: admin, json: { accountStatus: "active" } })).status).toBe(409)

      const audit = await call(`${base}/audit?limit=100`, { headers: readOnly })
      expect(audit.status).toBe(200)
      const entries: Array<{ action: string; actor: string; address: string | null; before: unknown; after: any }> = audit.body.data
      expect(entries.map((e) => [e.action, e.actor])).toEqual([
        ["merchant.status", "alice@ops"],
        ["secret.reveal", "alice@ops"],
        ["secret.rotate", "alice@ops"],
        ["secret.rotate", "cli"],
        ["api_key.issue", "alice@ops"],
        ["merchant.settings", "alice@ops"],
        ["merchant.create", "alice@ops"]
      ])
      expect(entries[0]).toMatchObject({ before: { accountStatus: "active" }, after: { accountStatus: "closed" }, address: "127.0.0.1" })
      expect(entries[2]?.after).toMatchObject({ encryptionKey: "rotated", overlapSeconds: 4 })
      expect(entries[3]).toMatchObject({ address: null, before: { publicKey: oldPublic }, after: { signingKey: "rotated", publicKey: newPublic } })
      expect(entries[5]).toMatchObject({ before: { webhookUrl: null, userDetailsUrl: null }, after: urls })
      const text = JSON.stringify(audit.body)
      for (const secret of [oldSecret, newSecret, privateKey, apiKey.split(".")[1]]) expect(text).not.toContain(secret)
      const paged = await call(`${base}/audit?page=2&limit=3`, { headers: readOnly })
      expect(paged.body.data.map((e: { action: string }) => e.action)).toEqual(["secret.rotate", "api_key.issue", "merchant.settings"])
      expect(paged.body.meta).toEqual({ currentPage: 2, limit: 3, nextPage: 3, prevPage: 1, totalElements: 7, totalPage: 3 })
      expect((await call(`${base}/audit?limit=101`, { headers: readOnly })).status).toBe(400)
      expect((await call(`${api}/merchants/999999/audit`, { headers: readOnly })).body.code).toBe("MERCHANT_NOT_FOUND")

      // The provider's own changes (no merchant): a catalogue game added and retired, the launch key rotated.
      const game = { name: "Audited", releaseDate: "2026-01-02", baseLaunchUrl: "https://games.example/a", category: 5, imageUrl: "https://games.example/a.png" }
      expect((await call(`${api}/games/audited-game`, { method: "PUT", headers: admin, json: game })).status).toBe(200)
      expect((await call(`${api}/games/audited-game`, { method: "DELETE", headers: admin })).status).toBe(204)
      const keyBefore = (await call(`${gw.url}/.well-known/jwks.json`)).body.keys[0].kid
      const rotatedKey = await call(`${api}/launch-keys/rotate`, { method: "POST", headers: admin })
      expect(rotatedKey.status).toBe(200)
      expect(rotatedKey.body.kid).not.toBe(keyBefore)
      const provider = await call(`${api}/audit?limit=3`, { headers: readOnly })
      expect(provider.status, provider.text).toBe(200)
      expect(provider.body.data.map((e: { action: string; actor: string; merchantId: unknown; before: unknown; after: unknown }) =>
        [e.action, e.actor, e.merchantId, e.before, e.after])).toEqual([
        ["launch_key.rotate", "alice@ops", null, { kid: keyBefore }, { kid: rotatedKey.body.kid }],
        ["game.retire", "alice@ops", null, { id: "audited-game", listed: true }, { id: "audited-game", listed: false }],
        ["game.upsert", "alice@ops", null, null, { id: "audited-game", ...game }]
      ])
      expect((await call(`${base}/audit?limit=100`, { headers: readOnly })).body.meta.totalElements, "not the merchant's").toBe(7)
    } finally {
      await operator.close()
    }
  }, 60_000)

  it("the database refuses to change or delete audit entries", async () => {
    const client = new pg.Client({ connectionString: env["DATABASE_URL"] })
    await client.connect()
    try {
      const { rows: [before] } = await client.query("SELECT count(*)::int AS n FROM audit_log")
      expect(before.n).toBeGreaterThan(0)
      await expect(client.query("UPDATE audit_log SET actor = 'mallory'")).rejects.toThrow(/append-only/)
      await expect(client.query("DELETE FROM audit_log")).rejects.toThrow(/append-only/)
      await expect(client.query("TRUNCATE audit_log")).rejects.toThrow(/append-only/)
      const { rows: [after] } = await client.query("SELECT count(*)::int AS n, count(*) FILTER (WHERE actor = 'mallory')::int AS m FROM audit_log")
      expect(after).toEqual({ n: before.n, m: 0 })
    } finally {
      await client.end()
    }
  })
})
