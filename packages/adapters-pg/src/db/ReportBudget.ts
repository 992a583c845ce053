import { Effect, Stream } from "effect"
import { ReportsBusy } from "@gateway/domain/Report"

/** How many reports may run at once: in total, and for one merchant. */
export interface ReportLimits {
  readonly total: number
  readonly perMerchant: number
}

/** The seconds a refused report is told to wait (`retry-after`). */
export const retryAfterSeconds = 2

/**
 * The reports' own budget, apart from the connections of bets and launches: a report takes a place for as long as
 * it runs (a stream until it ends) or is refused at once with ReportsBusy, never queued behind others. `merchantId`
 * undefined (an admin's report over many merchants) counts only against the total.
 */
export const make = (limits: ReportLimits) => {
  let running = 0
  const byMerchant = new Map<number, number>()
  const release = (merchantId: number | undefined) => {
    let released = false
    return Effect.sync(() => {
      if (released) return
      released = true
      running--
      if (merchantId === undefined) return
      const left = (byMerchant.get(merchantId) ?? 1) - 1
      if (left <= 0) byMerchant.delete(merchantId)
      else byMerchant.set(merchantId, left)
    })
  }
  const take = (merchantId: number | undefined): Effect.Effect<Effect.Effect<void>, ReportsBusy> =>
    Effect.suspend(() => {
      const mine = merchantId === undefined ? 0 : byMerchant.get(merchantId) ?? 0
      if (merchantId !== undefined && mine >= limits.perMerchant) {
        return Effect.fail(new ReportsBusy({ scope: "merchant", retryAfterSeconds }))
      }
      if (running >= limits.total) return Effect.fail(new ReportsBusy({ scope: "gateway", retryAfterSeconds }))
      running++
      if (merchantId !== undefined) byMerchant.set(merchantId, mine + 1)
      return Effect.succeed(release(merchantId))
    })
  return {
    /** Runs `effect` within the budget. */
    within: (merchantId: number | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.acquireUseRelease(take(merchantId), () => effect, (done) => done),
    /** Takes a place now and keeps it until the stream ends, fails or is interrupted. */
    streamWithin: <A, E, R>(merchantId: number | undefined, stream: Stream.Stream<A, E, R>) =>
      Effect.map(take(merchantId), (done) => Stream.ensuring(stream, done))
  }
}

/** A report budget. */
export type ReportBudget = ReturnType<typeof make>
