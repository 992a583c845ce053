import { Clock, Effect } from "effect"
import { type Destination, destinationOf } from "@gateway/domain/Callback"
import type { Delivery } from "@gateway/domain/Delivery"
import type { MerchantId } from "@gateway/domain/Merchant"
import type { DeliveryQueue } from "@gateway/domain/ports/DeliveryQueue"

/** A merchant that is behind. */
interface Behind {
  /** When the merchant first had a message deferred (wall clock ms). */
  readonly since: number
  /** The probe in flight and until when it counts as such (it may have been claimed by another instance). */
  probe?: { readonly id: string; readonly until: number } | undefined
}

/** How the delivery worker probes and catches up. */
export interface RecoveryOptions {
  readonly probeEveryMs: number
  readonly probeWindowMs: number
  /** How long a claim is leased: a probe not recorded by then was taken by another instance. */
  readonly leaseMs: number
}

/**
 * Prompt repair after an operator's outage. A merchant one of whose
 * messages had to wait for a retry is `behind`: while it is, one of its
 * waiting messages is sent ahead of its schedule every `probeEveryMs` (one
 * probe in flight at a time, the attempt not counted, only of a message
 * that would otherwise wait more than two probe intervals, for at most
 * `probeWindowMs` after the first deferral, so a long outage still ends in
 * `failed` on the contract's schedule), and the first message of it that is
 * delivered — a probe or any other — makes all its waiting messages due at
 * once. An operator that asked for time (`Retry-After`) is neither probed
 * nor hurried until that time has passed. A refund queued while the
 * wallet was down thus reaches the operator within about a second of its
 * recovery instead of at the next step of the schedule (5 s, then 5 min).
 * The memory is per instance: a merchant is probed by the instances whose
 * attempts for it failed. A merchant's wallet and its `callbackUrl` are
 * behind apart (`Callback.destinationOf`): one that answers again does not
 * hurry the other's messages, which would spend their attempts while it is
 * still down.
 */
export const make = (queue: DeliveryQueue["Service"], options: RecoveryOptions) => {
  const { leaseMs, probeEveryMs, probeWindowMs } = options
  /** Only a message that would otherwise wait longer than two probe intervals is probed. */
  const waitingMoreThanSeconds = (2 * probeEveryMs) / 1000
  const behind = new Map<string, Behind & { readonly merchantId: MerchantId; readonly destination: Destination }>()
  const keyOf = (delivery: Delivery) => `${delivery.merchantId} ${destinationOf(delivery.type)}`
  /** Merchants' destinations that asked for time (`Retry-After`): neither probed nor hurried before it has passed. */
  const askedToWait = new Map<string, number>()
  const holdsOff = (key: string, now: number) => (askedToWait.get(key) ?? 0) > now
  /** The attempt of a message is over: a probe of its merchant may go again. */
  const attempted = (delivery: Delivery) => {
    const state = behind.get(keyOf(delivery))
    if (state?.probe?.id === delivery.id) state.probe = undefined
  }
  const deferred = (delivery: Delivery, now: number) => {
    attempted(delivery)
    const key = keyOf(delivery)
    if (!behind.has(key)) behind.set(key, { since: now, merchantId: delivery.merchantId, destination: destinationOf(delivery.type) })
  }
  /** A message of the merchant was delivered: its operator answers again, and everything it missed goes now. */
  const caughtUp = (delivery: Delivery): Effect.Effect<void> => {
    if (!behind.delete(keyOf(delivery)) || holdsOff(keyOf(delivery), Date.now())) return Effect.void
    return Effect.flatMap(queue.hurry(delivery.merchantId, { destination: destinationOf(delivery.type) }), (ids) =>
      ids.length === 0 ? Effect.void : Effect.logInfo("an operator answers again; its waiting messages are due now").pipe(
        Effect.annotateLogs({ merchantId: delivery.merchantId, messages: ids.length })
      ))
  }
  /** One probe for each merchant behind that may have one now. */
  const probe = Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.forEach(behind, ([key, state]) => {
      const { merchantId, destination } = state
      if (
        now - state.since > probeWindowMs || (state.probe !== undefined && state.probe.until > now) ||
        holdsOff(key, now)
      ) return Effect.void
      return Effect.map(queue.hurry(merchantId, { limit: 1, probe: true, waitingMoreThanSeconds, destination }), ([id]) => {
        state.probe = id === undefined ? undefined : { id, until: now + leaseMs }
      })
    }, { discard: true }))

  return {
    probe,
    /** A message was delivered. */
    delivered: caughtUp,
    /**
     * An attempt failed: the operator's own failure (`operatorFailed`, retried later) puts its merchant behind;
     * a `Retry-After` holds it off until then.
     */
    failed: (delivery: Delivery, operatorFailed: boolean, retryAfterSeconds: number | undefined, now: number) => {
      if (retryAfterSeconds !== undefined) {
        const key = keyOf(delivery)
        askedToWait.set(key, Math.max(askedToWait.get(key) ?? 0, now + retryAfterSeconds * 1000))
      }
      if (operatorFailed) deferred(delivery, now)
      else attempted(delivery)
    }
  }
}
