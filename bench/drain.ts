/**
 * The delivery worker's throughput: N `transaction.credit` messages queued in
 * one transaction of the outbox (`webhook_deliveries`; its insert trigger
 * wakes the workers), timed from the commit until the operator stub has
 * received all of them. The baseline: the same N messages signed and POSTed
 * by plain keep-alive code at the worker's concurrency (16).
 */
import { randomUUID } from "node:crypto"
import { Agent, request } from "node:http"
import pg from "pg"
import { signMessage, type SigningKeys } from "@gateway/adapters-operator/webhooks/Signature"
import { fetchJson, numberField } from "./json.ts"
import { cpuMs, databaseCpuMs } from "./proc.ts"

const sum = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0)

/** Wallet messages of one batch (webhook-id `<batch>.<uuid>`) the stub has received: in all, and once per id. */
interface BatchCount {
  readonly total: number
  readonly distinct: number
}

/** One drain of N messages. */
export interface Drain {
  readonly messages: number
  readonly seconds: number
  readonly perSecond: number
  /** False when the time limit ran out first (then perSecond counts what arrived). */
  readonly complete: boolean
  /** Messages of the batch the stub received more than once (the same webhook-id again). */
  readonly duplicates: number
  /** CPU milliseconds (user + system) the senders spent per message. */
  readonly cpuMsPerMessage: number
  /** Transactions the database committed during the drain, per message (absent for the plain POSTs). */
  readonly statementsPerMessage?: number
  /** CPU milliseconds the PostgreSQL processes spent per message (absent for the plain POSTs). */
  readonly databaseCpuMsPerMessage?: number
}

const creditBody = (id: string) =>
  JSON.stringify({
    type: "transaction.credit",
    timestamp: new Date().toISOString(),
    data: { transactionId: id, amount: "1.00", currency: "ETB" }
  })

const batchCount = async (operatorUrl: string, batch: string): Promise<BatchCount> => {
  const counts: unknown = await fetchJson(`${operatorUrl}/count`, {}, 200)
  const batches = typeof counts === "object" && counts !== null && "batches" in counts ? counts.batches : undefined
  const own = typeof batches === "object" && batches !== null && batch in batches
    ? Object.getOwnPropertyDescriptor(batches, batch)?.value
    : undefined
  return own === undefined ? { total: 0, distinct: 0 } : { total: numberField(own, "total"), distinct: numberField(own, "distinct") }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const waitForBatch = async (operatorUrl: string, batch: string, messages: number, deadline: number): Promise<number> => {
  for (;;) {
    const { distinct } = await batchCount(operatorUrl, batch)
    if (distinct >= messages || Date.now() >= deadline) return distinct
    await sleep(10)
  }
}

const pending = async (client: pg.Client): Promise<number> =>
  (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'")).rows[0]?.n ?? 0

/** Waits until the outbox has nothing pending (messages of earlier runs); false when `timeoutMs` ran out. */
export const outboxEmpty = async (databaseUrl: string, timeoutMs: number): Promise<boolean> => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (await pending(client) === 0) return true
      await sleep(100)
    }
    return false
  } finally {
    await client.end()
  }
}

/** What one worker drain needs. */
export interface DrainOptions {
  readonly databaseUrl: string
  readonly operatorUrl: string
  readonly merchantId: number
  readonly messages: number
  readonly timeoutMs: number
  /** The gateways' processes, whose CPU time is the senders'. */
  readonly pids: ReadonlyArray<number>
}

/** Transactions the database of `client` has committed so far (the statistics lag by up to a second, at both ends alike). */
const committed = async (client: pg.Client): Promise<number> =>
  Number((await client.query<{ n: string }>(
    "SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()"
  )).rows[0]?.n ?? 0)

/**
 * Vacuums the outbox, queues `messages` credits of `merchantId` in one
 * transaction, their ids `<batch>.<uuid>`, and times the workers' drain until
 * the stub has received every id.
 */
export const drainWorker = async (options: DrainOptions, batch: string): Promise<Drain> => {
  const { databaseUrl, operatorUrl, merchantId, messages } = options
  if (!(await outboxEmpty(databaseUrl, 120_000))) console.error("bench: the outbox still has pending messages of earlier runs")
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  // As autovacuum would keep it (this machine's local server runs with autovacuum off; bench/README.md).
  await client.query("VACUUM webhook_deliveries")
  let started: number
  const cpuBefore = sum(options.pids.map(cpuMs))
  let databaseCpuBefore = 0
  const transactionsBefore = await committed(client)
  try {
    await client.query("BEGIN")
    await client.query(
      `INSERT INTO webhook_deliveries (id, merchant_id, type, body)
       SELECT id, $1, 'transaction.credit',
              json_build_object('type', 'transaction.credit', 'timestamp', now(),
                'data', json_build_object('transactionId', id, 'amount', '1.00', 'currency', 'ETB'))::text
       FROM (SELECT $3 || '.' || gen_random_uuid()::text AS id FROM generate_series(1, $2::int)) ids`,
      [merchantId, messages, batch]
    )
    started = performance.now()
    await client.query("COMMIT")
    // As autovacuum's analyze would soon after (its threshold for this table is 1,000 rows): the claims run
    // with the backlog's size known to the planner, as in production (a stats-dependent claim plan shows here).
    await client.query("ANALYZE webhook_deliveries")
    // The queueing transaction is the producer's work, not the drain's.
    databaseCpuBefore = databaseCpuMs()
  } catch (error) {
    await client.end()
    throw error
  }
  const received = await waitForBatch(operatorUrl, batch, messages, Date.now() + options.timeoutMs)
  const seconds = (performance.now() - started) / 1000
  const cpuMsPerMessage = (sum(options.pids.map(cpuMs)) - cpuBefore) / messages
  const databaseCpuMsPerMessage = (databaseCpuMs() - databaseCpuBefore) / messages
  const statementsPerMessage = (await committed(client).finally(() => client.end()) - transactionsBefore) / messages
  await outboxEmpty(databaseUrl, 30_000)
  const { total, distinct } = await batchCount(operatorUrl, batch)
  return {
    messages,
    seconds,
    perSecond: received / seconds,
    complete: received >= messages,
    duplicates: total - distinct,
    cpuMsPerMessage,
    statementsPerMessage,
    databaseCpuMsPerMessage
  }
}

const postOnce = (agent: Agent, url: string, body: string, headers: Record<string, string>) =>
  new Promise<void>((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      agent,
      headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) }
    }, (res) => {
      res.resume()
      res.on("end", () => (res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`stub answered ${res.statusCode}`)))
    })
    req.on("error", reject)
    req.end(body)
  })

/** The baseline: `messages` signed credits POSTed to `walletUrl` by plain code, `concurrency` at a time over keep-alive. */
export const drainPlain = async (
  walletUrl: string,
  keys: SigningKeys,
  messages: number,
  concurrency = 16
): Promise<Drain> => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const ids = Array.from({ length: messages }, () => `plain.${randomUUID()}`)
  let next = 0
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  try {
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const id = ids[next++] ?? ""
        const body = creditBody(id)
        await postOnce(agent, walletUrl, body, { ...signMessage(keys, id, Math.floor(Date.now() / 1000), body) })
      }
    }))
  } finally {
    agent.destroy()
  }
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  return {
    messages,
    seconds,
    perSecond: messages / seconds,
    complete: true,
    duplicates: 0,
    cpuMsPerMessage: (cpu.user + cpu.system) / 1000 / messages
  }
}
