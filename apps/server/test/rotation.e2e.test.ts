import { adminToken, call } from "@gateway/adapters-http/testing"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { jwtVerify } from "jose"
import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "vitest"
import { runToExit, spawnGateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const cli = join(import.meta.dirname, "..", "src", "cli.ts")

/** `node apps/server/src/cli.ts <args>` as an operator runs it: exit code, standard output and error. */
const runCli = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resolve) => {
    execFile(process.execPath, [cli, ...args], { env: { PATH: process.env["PATH"] ?? "", ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
  })

const freshDatabase = () => Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)).then(Redacted.value)
const secret = () => randomBytes(32).toString("base64url")

/** The status of an admin read with `token`. */
const merchantsWith = (url: string, token: string) =>
  call(`${url}/api/v1.1/operator-api/merchants`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status)

/** Runs `check` against a gateway started with `env`, then stops it. */
const withGateway = async (env: Record<string, string>, check: (url: string) => Promise<void>) => {
  const gw = await spawnGateway(env)
  try {
    await check(gw.url)
  } finally {
    await gw.stop("SIGKILL")
  }
}

describe("rotating AUTH_JWT_SECRET", () => {
  it("with `new,old` tokens of both are accepted and new ones are signed with the first; once `old` is removed its tokens are refused", async () => {
    const [older, newer] = [secret(), secret()]
    const base = { DATABASE_URL: await freshDatabase(), DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64") }
    const oldToken = await adminToken(older)

    const during = { ...base, AUTH_JWT_SECRET: `${newer}, ${older}` }
    const issued = await runCli(["token", "issue", "--scope", "read:users"], during)
    assert.strictEqual(issued.code, 0, issued.stderr)
    const newToken = issued.stdout.trim()
    const key = (text: string) => new TextEncoder().encode(text)
    assert.isDefined((await jwtVerify(newToken, key(newer))).payload.exp, "signed with the first secret")
    assert.strictEqual(await jwtVerify(newToken, key(older)).then(() => "verified", () => "refused"), "refused")

    await withGateway(during, async (url) => {
      assert.strictEqual(await merchantsWith(url, oldToken), 200, "a token of the old secret, still listed")
      assert.strictEqual(await merchantsWith(url, newToken), 200)
      assert.strictEqual(await merchantsWith(url, await adminToken(secret())), 401, "a secret never listed")
    })

    await withGateway({ ...base, AUTH_JWT_SECRET: newer }, async (url) => {
      assert.strictEqual(await merchantsWith(url, oldToken), 401, "the old secret is no longer listed")
      assert.strictEqual(await merchantsWith(url, newToken), 200)
    })

    const bad = await runToExit({ ...base, AUTH_JWT_SECRET: `${newer},too-short-a-secret` })
    assert.notStrictEqual(bad.code, 0)
    assert.match(bad.output.trim(), /^gateway: cannot start: .*AUTH_JWT_SECRET.*each comma-separated secret must be at least 32 characters/)
    assert.notInclude(bad.output, "too-short-a-secret")
    assert.notInclude(bad.output, newer)
  })
})
