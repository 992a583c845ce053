import { Clock, Effect, Semaphore, Stream } from "effect"
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
 *   `database-time`, `retry-after` when the share is back; a wait of up to {@link maxQueueMs} is waited instead) and a
 *   running export waits before its next batch.
 *   Omitted: not metered.
 */
export interface ReportLimits {
  readonly total: number
  readonly perMerchant: number
  readonly exports?: number | undefined
  readonly exportsPerMerchant?: number | undefined
  readonly dbShare?: number | undefined
  readonly dbBurstMs?: number | undefined
  /**
   * The same for all merchants' reports together (and the admins'), so that several heavy merchants at once still
   * leave the database to bets: over it, ReportsBusy `gateway`. Omitted: not metered.
   */
  readonly dbShareTotal?: number | undefined
  /**
   * How many report statements may run in the database at once, all merchants together (a statement waits for
   * its turn, holding its report's place): each takes up to one core of PostgreSQL (no parallel workers), so this
   * bounds the cores reports take at once whatever the merchants do. A CSV download's cursor is held between its
   * `FETCH`es without a turn, so the reports' pool needs more connections than CSV downloads (else a page holding
   * the turn could wait for a connection that only a waiting download would give back). Omitted: no bound.
   */
  readonly dbStatements?: number | undefined
}

/** The seconds a report refused for its concurrency is told to wait (`retry-after`). */
export const retryAfterSeconds = 2

/** The database time (ms) a merchant may spend at once past its share, when none is given. */
export const defaultDbBurstMs = 1_000

/**
 * A report that would wait at most this long (ms) for its merchant's, or the gateway's, database time waits (holding
 * its place, so one such wait per merchant) rather than being refused: a user paging through a heavy summary gets
 * each page a little later instead of a 429; a longer wait is ReportsBusy with `retry-after`.
 */
export const maxQueueMs = 3_000

/**
 * The longest a merchant waits for its database time (ms), however long one statement ran: its debt is forgiven
 * past it. A summary CSV waits between two `FETCH`es in an open transaction, which the reports' connections end
 * after a minute idle (`idle_in_transaction_session_timeout`); and a `retry-after` should be a wait a client takes.
 */
export const maxWaitMs = 30_000

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
      buckets.set(merchantId, { level: Math.max(-maxWaitMs * share, levelAt(merchantId, now) - ms), at: now })
    }
  }
}

/**
 * The reports' own budget, apart from the connections of bets and launches: a report takes a place for as long as
 * it runs (a stream until it ends) or is refused at once with ReportsBusy, never queued behind others; and, with
 * `dbShare` and `dbShareTotal`, each merchant's reports, and all of them, use at most that share of the database's
 * time. `merchantId` undefined (an admin's report over many merchants) counts only against the totals.
 */
export const make = (limits: ReportLimits) => {
  const queries = counter(limits.total, limits.perMerchant)
  const exports = counter(limits.exports ?? limits.total, limits.exportsPerMerchant ?? 1)
  const share = limits.dbShare !== undefined && limits.dbShare < 1 ? limits.dbShare : undefined
  const time = share === undefined ? undefined : meter(share, limits.dbBurstMs ?? defaultDbBurstMs)
  const shareTotal = limits.dbShareTotal
  const allTime = shareTotal === undefined ? undefined : meter(shareTotal, (limits.dbBurstMs ?? defaultDbBurstMs) * 2)
  /** The gateway's bucket in `allTime`. */
  const all = 0
  /** How long the merchant, and the gateway, must wait for database time (ms). */
  const waits = (merchantId: number | undefined, now: number) => ({
    merchant: time === undefined || merchantId === undefined ? 0 : time.wait(merchantId, now),
    gateway: allTime === undefined ? 0 : allTime.wait(all, now)
  })

  const take = (kind: typeof queries, merchantId: number | undefined): Effect.Effect<Effect.Effect<void>, ReportsBusy> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const wait = waits(merchantId, now)
      if (wait.merchant > maxQueueMs || wait.gateway > maxQueueMs) {
        const seconds = Math.max(1, Math.ceil(Math.max(wait.merchant, wait.gateway) / 1000))
        return Effect.fail(
          new ReportsBusy({ scope: wait.merchant > 0 ? "database-time" : "gateway", retryAfterSeconds: seconds })
        )
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

  const gate = limits.dbStatements === undefined ? undefined : Semaphore.makeUnsafe(limits.dbStatements)

  /**
   * Runs `effect` (one statement, or a few) when a statement's turn is free, and counts its duration against the
   * merchant's database time.
   */
  const metered = (merchantId: number | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    gate === undefined ? timed(merchantId)(effect) : gate.withPermits(1)(timed(merchantId)(effect))

  const timed = (merchantId: number | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    time === undefined && allTime === undefined ? effect : Effect.acquireUseRelease(
      Clock.currentTimeMillis,
      () => effect,
      (started) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          if (time !== undefined && merchantId !== undefined) time.charge(merchantId, now, now - started)
          allTime?.charge(all, now, now - started)
        })
    )

  /** Waits while the merchant, or the gateway, is over its database time (an export between two batches). */
  const turn = (merchantId: number | undefined): Effect.Effect<void> =>
    time === undefined && allTime === undefined ? Effect.void : Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const wait = waits(merchantId, now)
      const longest = Math.max(wait.merchant, wait.gateway)
      return longest > 0 ? Effect.andThen(Effect.sleep(Math.ceil(longest)), turn(merchantId)) : Effect.void
    })

  return {
    /**
     * Runs the query `effect` within the budget, after the wait for the merchant's database time if it is short,
     * its duration counted against the merchant's database time.
     */
    within: (merchantId: number | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.acquireUseRelease(
        take(queries, merchantId),
        () => Effect.andThen(turn(merchantId), metered(merchantId)(effect)),
        (done) => done
      ),
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
