import { Clock, Effect, Stream } from "effect"
import { ReportsBusy } from "@gateway/domain/Report"

/**
 * How many reports may run at once, and how much of the database's time a merchant's reports may take.
 *
 * - `total` / `perMerchant`: queries that answer one page (rounds, summaries, GGR), in all and per merchant.
 * - `exports` / `exportsPerMerchant`: CSV downloads, a budget of their own (a download runs for a minute, a page for
 *   a second, and one must not lock the other out), in all and per merchant. Default: `total` and 1.
 * - `dbShare`: the share of one database connection's time a merchant's reports may keep busy on average (0.25: a
 *   quarter of one core of PostgreSQL), with a burst of `dbBurstMs`. Each report statement's time is counted
 *   against its merchant when it ends; while the merchant is over its share, a new report is refused (ReportsBusy
 *   `database-time`, `retry-after` when the share is back) and a running export waits before its next batch.
 *   Omitted: not metered.
 */
export interface ReportLimits {
  readonly total: number
  readonly perMerchant: number
  readonly exports?: number | undefined
  readonly exportsPerMerchant?: number | undefined
  readonly dbShare?: number | undefined
  readonly dbBurstMs?: number | undefined
}

/** The seconds a report refused for its concurrency is told to wait (`retry-after`). */
export const retryAfterSeconds = 2

/** The database time (ms) a merchant may spend at once past its share, when none is given. */
export const defaultDbBurstMs = 1_000

/** The longest `retry-after` a report refused for its database time is told (s). */
const maxRetryAfterSeconds = 60

/** Counts of what runs, in all and per merchant. */
const counter = (total: number, perMerchant: number) => {
  let running = 0
  const byMerchant = new Map<number, number>()
  return {
    /** Takes a place, or says which limit is reached. */
    take: (merchantId: number | undefined): "merchant" | "gateway" | undefined => {
      const mine = merchantId === undefined ? 0 : byMerchant.get(merchantId) ?? 0
      if (merchantId !== undefined && mine >= perMerchant) return "merchant"
      if (running >= total) return "gateway"
      running++
      if (merchantId !== undefined) byMerchant.set(merchantId, mine + 1)
      return undefined
    },
    release: (merchantId: number | undefined) => {
      running--
      if (merchantId === undefined) return
      const left = (byMerchant.get(merchantId) ?? 1) - 1
      if (left <= 0) byMerchant.delete(merchantId)
      else byMerchant.set(merchantId, left)
    }
  }
}

/**
 * Each merchant's database time: a bucket of `burstMs` that fills at `share` ms per ms and is emptied by each report
 * statement's duration (the time its connection was busy for it; on a busy database longer than its CPU time, so
 * reports slow down further exactly when bets need the database). A merchant whose bucket is empty waits
 * `wait(merchantId)` ms. Full buckets are forgotten.
 */
const meter = (share: number, burstMs: number) => {
  const buckets = new Map<number, { level: number; at: number }>()
  const levelAt = (merchantId: number, now: number) => {
    const bucket = buckets.get(merchantId)
    if (bucket === undefined) return burstMs
    return Math.min(burstMs, bucket.level + (now - bucket.at) * share)
  }
  return {
    /** How long (ms) the merchant must wait before its reports may use the database again; 0: now. */
    wait: (merchantId: number, now: number) => {
      const level = levelAt(merchantId, now)
      if (level >= burstMs) buckets.delete(merchantId)
      return level > 0 ? 0 : (-level + 1) / share
    },
    charge: (merchantId: number, now: number, ms: number) => {
      buckets.set(merchantId, { level: levelAt(merchantId, now) - ms, at: now })
    }
  }
}

/**
 * The reports' own budget, apart from the connections of bets and launches: a report takes a place for as long as
 * it runs (a stream until it ends) or is refused at once with ReportsBusy, never queued behind others; and, with
 * `dbShare`, each merchant's reports use at most that share of the database's time. `merchantId` undefined (an
 * admin's report over many merchants) counts only against the total, unmetered.
 */
export const make = (limits: ReportLimits) => {
  const queries = counter(limits.total, limits.perMerchant)
  const exports = counter(limits.exports ?? limits.total, limits.exportsPerMerchant ?? 1)
  const share = limits.dbShare !== undefined && limits.dbShare < 1 ? limits.dbShare : undefined
  const time = share === undefined ? undefined : meter(share, limits.dbBurstMs ?? defaultDbBurstMs)

  const take = (kind: typeof queries, merchantId: number | undefined): Effect.Effect<Effect.Effect<void>, ReportsBusy> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const wait = time === undefined || merchantId === undefined ? 0 : time.wait(merchantId, now)
      if (wait > 0) {
        const seconds = Math.min(maxRetryAfterSeconds, Math.max(1, Math.ceil(wait / 1000)))
        return Effect.fail(new ReportsBusy({ scope: "database-time", retryAfterSeconds: seconds }))
      }
      const full = kind.take(merchantId)
      if (full !== undefined) return Effect.fail(new ReportsBusy({ scope: full, retryAfterSeconds }))
      let released = false
      return Effect.succeed(Effect.sync(() => {
        if (released) return
        released = true
        kind.release(merchantId)
      }))
    })

  /** Runs `effect` (one statement, or a few) and counts its duration against the merchant's database time. */
  const metered = (merchantId: number | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    time === undefined || merchantId === undefined ? effect : Effect.acquireUseRelease(
      Clock.currentTimeMillis,
      () => effect,
      (started) => Effect.map(Clock.currentTimeMillis, (now) => time.charge(merchantId, now, now - started))
    )

  /** Waits while the merchant is over its database time (an export between two batches). */
  const turn = (merchantId: number | undefined): Effect.Effect<void> =>
    time === undefined || merchantId === undefined ? Effect.void : Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const wait = time.wait(merchantId, now)
      return wait > 0 ? Effect.andThen(Effect.sleep(Math.ceil(wait)), turn(merchantId)) : Effect.void
    })

  return {
    /** Runs the query `effect` within the budget, its duration counted against the merchant's database time. */
    within: (merchantId: number | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.acquireUseRelease(take(queries, merchantId), () => metered(merchantId)(effect), (done) => done),
    /** Takes an export's place now and keeps it until the stream ends, fails or is interrupted. */
    streamWithin: <A, E, R>(merchantId: number | undefined, stream: Stream.Stream<A, E, R>) =>
      Effect.map(take(exports, merchantId), (done) => Stream.ensuring(stream, done)),
    /**
     * One statement of an export: waits while the merchant is over its database time, then runs it, its
     * duration counted.
     */
    batch: (merchantId: number | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.andThen(turn(merchantId), metered(merchantId)(effect))
  }
}

/** A report budget. */
export type ReportBudget = ReturnType<typeof make>
