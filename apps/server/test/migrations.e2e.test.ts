import { Effect, Exit, Redacted, Scope } from "effect"
import * as PgTest from "@gateway/adapters-pg/testing"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, assert, describe, it } from "vitest"
import { runCli } from "../testing/Cli.ts"
import { freePort, runToExit, spawnGateway } from "../testing/Gateway.ts"

const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const query = async (url: string, text: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows
  } finally {
    await client.end()
  }
}

describe("MIGRATE_ON_START=false and `cli migrate` (rolling upgrades)", () => {
  it("a new instance applies no migration and refuses an older schema in one line; `cli migrate` applies them; a newer schema is fine", async () => {
    const url = Redacted.value(await Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)))
    const env = {
      DATABASE_URL: url,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      AUTH_JWT_SECRET: randomBytes(32).toString("base64url"),
      MIGRATE_ON_START: "false"
    }
    const refused = await runToExit({ ...env, PORT: String(await freePort()) })
    assert.notStrictEqual(refused.code, 0)
    assert.lengthOf(refused.output.trim().split("\n"), 1, refused.output)
    assert.match(refused.output, /^gateway: cannot start: the database schema is at migration 0 and this version needs \d+: run `gateway migrate`/)
    assert.deepStrictEqual(
      await query(url, "SELECT to_regclass('gateway_migrations') AS migrations, to_regclass('merchants') AS merchants"),
      [{ migrations: null, merchants: null }],
      "nothing was migrated"
    )

    const migrated = await runCli(["migrate"], env)
    assert.strictEqual(migrated.code, 0, migrated.stdout + migrated.stderr)
    const [latest] = await query(url, "SELECT max(migration_id) AS id FROM gateway_migrations")
    assert.isAbove(Number(latest?.id), 0)
    assert.include(migrated.stdout + migrated.stderr, `the database schema is at migration ${latest?.id}`)
    assert.strictEqual((await runCli(["migrate"], env)).code, 0, "migrate again: nothing to do")

    // A later version's migration already applied (expand/contract): this version still starts on it.
    await query(url, "INSERT INTO gateway_migrations (migration_id, name) VALUES (9999, 'from_a_later_version')")
    const gw = await spawnGateway(env)
    try {
      assert.strictEqual((await fetch(`${gw.url}/ready`)).status, 200)
    } finally {
      assert.strictEqual(await gw.stop("SIGTERM"), 0)
    }
  })
})
