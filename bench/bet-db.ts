/**
 * The bet bench's database side: what a round costs PostgreSQL (transactions,
 * rows written and WAL bytes, read around a fixed number of rounds with both
 * outboxes drained), and the check after the runs that every bet a server
 * answered was debited once and credited once: in its ledger and at the
 * wallet stub.
 */
import pg from "pg"
import { fetchJson, numberField } from "./json.ts"
import { cpuMs, databaseCpuMs } from "./proc.ts"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits until nothing is pending: the gateway's outbox and rounds still waiting for their debit's answer, and the
 * plain implementation's outbox when it runs on the same database (looked up once).
 */
const drained = async (client: pg.Client, timeoutMs: number): Promise<boolean> => {
  const [plain] = (await client.query<{ present: boolean }>("SELECT to_regclass('plain_outbox') IS NOT NULL AS present")).rows
  const pending = `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')
      + (SELECT count(*) FROM rounds WHERE status = 'debiting')
      ${plain?.present === true ? "+ (SELECT count(*) FROM plain_outbox WHERE status = 'pending')" : ""} AS n`
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (Number((await client.query<{ n: string }>(pending)).rows[0]?.n ?? 0) === 0) return true
    await sleep(100)
  }
  return false
}

interface Counters {
  readonly sessions: number
  readonly transactions: number
  readonly rows: number
  readonly walBytes: number
}

/**
 * The database's counters. `pg_stat_database` is written by each backend at
 * most once a second, so they are read after 1.5 s without load. The WAL
 * position is the server's: anything else writing to it counts too.
 */
const counters = async (client: pg.Client): Promise<Counters> => {
  await sleep(1500)
  const { rows } = await client.query<{ s: string; x: string; r: string; wal: string }>(
    `SELECT sessions AS s, xact_commit + xact_rollback AS x, tup_inserted + tup_updated + tup_deleted AS r,
       pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS wal
     FROM pg_stat_database WHERE datname = current_database()`
  )
  const row = rows[0]
  return { sessions: Number(row?.s ?? 0), transactions: Number(row?.x ?? 0), rows: Number(row?.r ?? 0), walBytes: Number(row?.wal ?? 0) }
}

/** What one round cost the database, the credit's delivery and the bench's own three queries included. */
export interface DbCost {
  readonly rounds: number
  readonly transactionsPerRound: number
  /** Connections opened to the database during the rounds (a pool that keeps its connections opens none). */
  readonly connectionsOpened: number
  readonly rowsPerRound: number
  readonly walBytesPerRound: number
  /** CPU of every PostgreSQL process on the machine, ms a round (other databases' work included). */
  readonly databaseCpuMsPerRound: number
  /** CPU of the server process over the same time, ms a round (its credits' delivery included). */
  readonly serverCpuMsPerRound: number
}

/** Runs `load` (which answers `rounds` rounds) between two readings of the counters, both outboxes drained. */
export const dbCost = async (
  databaseUrl: string,
  load: () => Promise<unknown>,
  rounds: number,
  serverPid: number
): Promise<DbCost> => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await drained(client, 60_000)
    const before = await counters(client)
    const cpuBefore = [databaseCpuMs(), cpuMs(serverPid)] as const
    await load()
    await drained(client, 60_000)
    const cpuAfter = [databaseCpuMs(), cpuMs(serverPid)] as const
    const after = await counters(client)
    return {
      rounds,
      transactionsPerRound: (after.transactions - before.transactions) / rounds,
      connectionsOpened: after.sessions - before.sessions,
      rowsPerRound: (after.rows - before.rows) / rounds,
      walBytesPerRound: (after.walBytes - before.walBytes) / rounds,
      databaseCpuMsPerRound: (cpuAfter[0] - cpuBefore[0]) / rounds,
      serverCpuMsPerRound: (cpuAfter[1] - cpuBefore[1]) / rounds
    }
  } finally {
    await client.end()
  }
}

/** Of the bets a server answered 2xx: how many its ledger booked once each way, and the stub got once each way. */
export interface SettledCheck {
  readonly answered: number
  /** Settled, with exactly one debit and one credit row in the ledger. */
  readonly booked: number
  readonly debitedOnce: number
  readonly creditedOnce: number
  /** Messages the stub received twice for one round and type, over the whole run (both servers). */
  readonly repeats: number
  /** Rounds the stub got two transaction ids of one type for (booked twice), over the whole run. */
  readonly doubles: number
  /** False when an outbox still had pending messages after 60 s. */
  readonly drained: boolean
}

/** Checks the answered rounds of one server (`gateway`: rounds / ledger_entries; `plain`: its own tables). */
export const settledOnce = async (
  databaseUrl: string,
  operatorUrl: string,
  who: "gateway" | "plain",
  ids: ReadonlySet<string>
): Promise<SettledCheck> => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const empty = await drained(client, 60_000)
    const [rounds, ledger] = who === "gateway" ? ["rounds", "ledger_entries"] : ["plain_rounds", "plain_ledger"]
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT r.id FROM ${rounds} r JOIN ${ledger} l ON l.round_id = r.id
         WHERE r.id = ANY($1::uuid[]) AND r.status = 'settled'
         GROUP BY r.id
         HAVING count(*) FILTER (WHERE l.kind = 'debit') = 1 AND count(*) FILTER (WHERE l.kind = 'credit') = 1
           AND count(*) = 2
       ) booked`,
      [[...ids]]
    )
    const stub = await fetchJson(`${operatorUrl}/rounds-check`, { method: "POST", body: JSON.stringify([...ids]) }, 200)
    const all = await fetchJson(`${operatorUrl}/rounds`, {}, 200)
    return {
      answered: ids.size,
      booked: rows[0]?.n ?? 0,
      debitedOnce: numberField(stub, "debitedOnce"),
      creditedOnce: numberField(stub, "creditedOnce"),
      repeats: numberField(all, "repeats"),
      doubles: numberField(all, "doubles"),
      drained: empty
    }
  } finally {
    await client.end()
  }
}
