import { call } from "@gateway/adapters-http/testing"
import * as PgTest from "@gateway/adapters-pg/testing"
import { Effect, Exit, Redacted, Scope } from "effect"
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { Webhook } from "standardwebhooks"
import { afterAll, assert, describe, it } from "vitest"
import { spawnGateway } from "../testing/Gateway.ts"
import { playerSession, poll, startWallet } from "./Wallet.ts"

const scope = Effect.runSync(Scope.make())
const work = mkdtempSync(join(tmpdir(), "gateway-backup-"))
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(work, { recursive: true, force: true })
})

const freshDatabase = () => Effect.runPromise(Scope.provide(scope)(PgTest.scopedDatabaseUrl)).then(Redacted.value)

const query = async (url: string, text: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows
  } finally {
    await client.end()
  }
}

const major = (version: string) => Number(/(\d+)/.exec(version)?.[1] ?? 0)

/** The PostgreSQL client tools for the test server's version: its Debian directory, else the ones on PATH. */
const clientTools = (serverMajor: number): string | undefined => {
  for (const dir of [`/usr/lib/postgresql/${serverMajor}/bin`, ...(process.env["PATH"] ?? "").split(":")]) {
    const pgDump = join(dir, "pg_dump")
    if (!existsSync(pgDump) || !existsSync(join(dir, "pg_restore"))) continue
    if (major(execFileSync(pgDump, ["--version"], { encoding: "utf8" }).replace(/^\D+/, "")) >= serverMajor) return dir
  }
  return undefined
}

const serverMajor = await (async () => {
  const url = await freshDatabase()
  const [row] = await query(url, "SELECT current_setting('server_version_num')::int / 10000 AS major")
  return Number(row?.major)
})()
const tools = clientTools(serverMajor)

/** What a restore must bring back: the ledger's sums, the rounds, the outbox, the stored secrets. */
/** What a backup must carry, read through `read` (one query at a time). */
const stateOf = async (read: (text: string) => ReturnType<typeof query>) => ({
  ledger: await read(`
    SELECT r.merchant_id, e.kind, e.currency, count(*)::int AS entries, sum(e.amount_minor)::text AS total
    FROM ledger_entries e JOIN rounds r ON r.id = e.round_id GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
  rounds: await read("SELECT merchant_id, status, count(*)::int AS n, sum(stake_minor)::text AS stakes, sum(payout_minor)::text AS payouts FROM rounds GROUP BY 1, 2 ORDER BY 1, 2"),
  outbox: await read("SELECT id, merchant_id, type, body, status, attempts FROM webhook_deliveries ORDER BY id"),
  secrets: await read("SELECT id, private_key_enc, encryption_key_enc FROM merchants ORDER BY id"),
  launchKeys: await read("SELECT kid, private_key_enc FROM launch_signing_keys ORDER BY kid")
})

const state = (url: string) => stateOf((text) => query(url, text))

/**
 * `dump(snapshot)` runs pg_dump on the snapshot of a transaction that then reads the state: the state the backup
 * took, exactly, while the gateway goes on changing the database (its worker retrying a credit meanwhile).
 */
const dumpWithState = async (url: string, dump: (snapshot: string) => void) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    const snapshot = String((await client.query("SELECT pg_export_snapshot() AS s")).rows[0]?.s)
    dump(snapshot)
    const taken = await stateOf(async (text) => (await client.query(text)).rows)
    await client.query("COMMIT")
    return taken
  } finally {
    await client.end()
  }
}

describe("backup and restore drill (external database)", () => {
  it.skipIf(tools === undefined)(
    `pg_dump of a live gateway's database → pg_restore into a fresh one → the gateway starts on it, sums and outbox match, pending deliveries go out (client tools ${tools ?? `for PostgreSQL ${serverMajor} not found`})`,
    async () => {
      const bin = tools ?? ""
      const dataKey = randomBytes(32).toString("base64")
      const authSecret = randomBytes(32).toString("base64url")
      const source = await freshDatabase()
      const env = (url: string) => ({
        DATABASE_URL: url,
        DATA_ENCRYPTION_KEY: dataKey,
        AUTH_JWT_SECRET: authSecret,
        ALLOW_PRIVATE_OPERATOR_URLS: "true",
        PUBLIC_BASE_URL: "https://games.example",
        WEBHOOK_TIMEOUT_MS: "1000",
        WEBHOOK_RETRY_SCHEDULE: "8,600",
        // No circuit breaker: the refused credits must wait their 8 s untouched while the backup is taken (an open
        // circuit postpones a claimed credit and gives its attempt back, so the outbox could change under pg_dump)
        OPERATOR_BREAKER_FAILURES: "0"
      })
      // The wallet takes debits but answers credits 503 for now: the credits wait in the outbox.
      const wallet = await startWallet((_r, body) => body.type === "transaction.credit" ? { status: 503 } : { status: 200 })
      const credits = () => wallet.messages().filter((m) => m.body.type === "transaction.credit")
      try {
        const gw = await spawnGateway(env(source))
        const players = [
          await playerSession(gw, wallet.url, "alpha@example.com"),
          await playerSession(gw, wallet.url, "beta@example.com")
        ]
        for (const player of players) {
          const { sessionToken } = await player.newSession()
          for (const stake of ["10.00", "2.50", "7.25"]) {
            const bet = await player.bet(sessionToken, stake, "odd")
            assert.strictEqual(bet.status, 200, bet.text)
          }
        }
        // Each round's credit tried once, refused, and due again in 8 s (after the restore): pending, not leased.
        const rounds = 6
        await poll(
          () =>
            query(source, `
              SELECT count(*)::int AS rounds, count(*) FILTER (WHERE status = 'pending' AND attempts = 1 AND lease_until IS NULL)::int AS waiting
              FROM webhook_deliveries WHERE type = 'transaction.credit'`),
          (rows) => rows[0]?.rounds === rounds && rows[0]?.waiting === rounds
        )
        const day = 86_400_000
        const [from, to] = [new Date(Date.now() - day).toISOString(), new Date(Date.now() + day).toISOString()]
        const summaryPath = `/api/v1.1/operator-api/reports/summary?from=${from}&to=${to}&groupBy=player`
        const summaries = await Promise.all(players.map((p) => call(`${gw.url}${summaryPath}`, { headers: { "sv-api-key": p.key } })))
        for (const summary of summaries) assert.strictEqual(summary.status, 200, summary.text)

        // The backup, taken while the gateway serves; then the gateway is lost.
        const dump = join(work, "gateway.dump")
        const backedUp = await dumpWithState(source, (snapshot) =>
          execFileSync(join(bin, "pg_dump"), ["--format=custom", "--file", dump, "--snapshot", snapshot, "--dbname", source]))
        await gw.stop("SIGKILL")
        assert.lengthOf(backedUp.outbox.filter((m) => m.status === "pending"), rounds)

        const target = await freshDatabase()
        execFileSync(join(bin, "pg_restore"), ["--no-owner", "--exit-on-error", "--single-transaction", "--dbname", target, dump])
        assert.deepStrictEqual(await state(target), backedUp, "the restored database holds what the backup took")

        wallet.setReply(() => ({ status: 200 }))
        const before = credits().length
        const restored = await spawnGateway(env(target))
        try {
          assert.strictEqual((await fetch(`${restored.url}/ready`)).status, 200)
          for (const [i, player] of players.entries()) {
            const summary = await call(`${restored.url}${summaryPath}`, { headers: { "sv-api-key": player.key } })
            assert.strictEqual(summary.status, 200, summary.text)
            assert.deepStrictEqual(summary.body, summaries[i]?.body, "the same report after the restore")
          }
          // The pending credits go out from the restored gateway, signed with the restored merchants' keys.
          await poll(
            () => query(target, "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered' AND type = 'transaction.credit'"),
            (rows) => rows[0]?.n === rounds,
            30_000
          ).catch(async (error: unknown) => {
            const outbox = await query(target, "SELECT type, status, attempts, next_attempt_at, lease_until FROM webhook_deliveries ORDER BY created_at")
            throw new Error(`${String(error)}; the outbox: ${JSON.stringify(outbox)}; the restored gateway logged: ${restored.output().slice(-2000)}`)
          })
          const resent = credits().slice(before)
          assert.sameMembers(
            [...new Set(resent.map((m) => String(m.headers["webhook-id"])))],
            backedUp.outbox.filter((m) => m.status === "pending").map((m) => String(m.id))
          )
          const raw = wallet.received.filter((r) => r.url === "/wallet").slice(-resent.length)
          for (const r of raw) {
            const player = players.find((p) => p.merchantId === Number(backedUp.outbox.find((m) => m.id === r.headers["webhook-id"])?.merchant_id))
            new Webhook(player?.encryptionKey ?? "").verify(r.body, {
              "webhook-id": String(r.headers["webhook-id"]),
              "webhook-timestamp": String(r.headers["webhook-timestamp"]),
              "webhook-signature": String(r.headers["webhook-signature"])
            })
          }
          const after = await state(target)
          assert.deepStrictEqual(after.ledger, backedUp.ledger, "delivering changes no sum")
          // And it takes new bets.
          const again = await playerSession(restored, wallet.url, "gamma@example.com")
          const { sessionToken } = await again.newSession()
          assert.strictEqual((await again.bet(sessionToken, "1.00", "even")).status, 200)
        } finally {
          await restored.stop("SIGKILL")
        }
      } finally {
        await wallet.close()
      }
    }
  )
})

describe("backup and restore drill (embedded database)", () => {
  it.runIf(process.platform === "linux")(
    "a tar of DATA_DIR taken while stopped, unpacked elsewhere: the gateway starts on it with the same merchants, report and keys",
    async () => {
      const home = join(work, "embedded")
      const dataDir = join(home, "data")
      const wallet = await startWallet(() => ({ status: 200 }))
      const authSecret = randomBytes(32).toString("base64url")
      const env = (dir: string) => ({
        DATA_DIR: dir,
        AUTH_JWT_SECRET: authSecret,
        ALLOW_PRIVATE_OPERATOR_URLS: "true",
        PUBLIC_BASE_URL: "https://games.example"
      })
      const day = 86_400_000
      const summaryPath = `/api/v1.1/operator-api/reports/summary?from=${new Date(Date.now() - day).toISOString()}&to=${
        new Date(Date.now() + day).toISOString()
      }&groupBy=player`
      try {
        const gw = await spawnGateway(env(dataDir))
        const player = await playerSession(gw, wallet.url, "embedded@example.com")
        const { sessionToken } = await player.newSession()
        for (const stake of ["3.00", "4.00"]) assert.strictEqual((await player.bet(sessionToken, stake, "odd")).status, 200)
        await poll(
          () => call(`${gw.url}${summaryPath}`, { headers: { "sv-api-key": player.key } }),
          (r) => r.status === 200 && JSON.stringify(r.body).includes("7.00")
        )
        const summary = await call(`${gw.url}${summaryPath}`, { headers: { "sv-api-key": player.key } })
        assert.strictEqual(await gw.stop("SIGTERM"), 0)

        const backup = join(work, "gateway-data.tgz")
        execFileSync("tar", ["-C", home, "-czf", backup, "data"])
        const listed = execFileSync("tar", ["-tzf", backup], { encoding: "utf8" }).split("\n")
        for (const file of ["data/encryption.key", "data/pg.password", "data/pg/PG_VERSION"]) assert.include(listed, file)
        rmSync(dataDir, { recursive: true, force: true })

        const elsewhere = join(work, "restored")
        mkdirSync(elsewhere)
        execFileSync("tar", ["-C", elsewhere, "-xzf", backup])
        const restored = await spawnGateway(env(join(elsewhere, "data")))
        try {
          const again = await call(`${restored.url}${summaryPath}`, { headers: { "sv-api-key": player.key } })
          assert.strictEqual(again.status, 200, again.text)
          assert.deepStrictEqual(again.body, summary.body)
          const launched = await call(
            `${restored.url}/api/v1.1/operator-api/games/generate-launch-url?gameId=odd-even&playerId=p-2&sessionId=s-restored&mode=real`,
            { headers: { "sv-api-key": player.key } }
          )
          assert.strictEqual(launched.status, 200, launched.text)
          const opened = await call(`${restored.url}/api/v1.1/game-api/sessions`, {
            method: "POST",
            json: { token: new URL(launched.body.url).searchParams.get("token") }
          })
          assert.strictEqual(opened.status, 201, opened.text)
          const bet = await call(`${restored.url}/api/v1.1/game-api/rounds`, {
            method: "POST",
            headers: { authorization: `Bearer ${opened.body.sessionToken}` },
            json: { stake: "1.00", selection: "even" }
          })
          assert.strictEqual(bet.status, 200, bet.text)
          await poll(async () => wallet.received.filter((r) => r.url === "/wallet" && JSON.parse(r.body).data.roundId === bet.body.roundId), (rs) => rs.length === 2)
          for (const r of wallet.received.filter((r) => r.url === "/wallet" && JSON.parse(r.body).data.roundId === bet.body.roundId)) {
            new Webhook(player.encryptionKey).verify(r.body, {
              "webhook-id": String(r.headers["webhook-id"]),
              "webhook-timestamp": String(r.headers["webhook-timestamp"]),
              "webhook-signature": String(r.headers["webhook-signature"])
            })
          }
        } finally {
          await restored.stop("SIGTERM")
        }
      } finally {
        await wallet.close()
      }
    }
  )
})
