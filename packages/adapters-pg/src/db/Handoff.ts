import type { Delivery } from "@gateway/domain/Delivery"
import { Context, Effect, Layer, Queue, Stream } from "effect"

/**
 * Outbox messages handed from the transaction that queued them straight to
 * this process's delivery worker (issue 22): a round's credit is written to
 * `webhook_deliveries` already leased to this process (`lease_until`, its
 * first attempt counted) and, once committed, handed over here, so the worker
 * sends it at once without a claim query and without a NOTIFY. The row stays
 * the durable record: if this process dies before the message is marked
 * delivered, the lease runs out and any instance's worker claims it as it
 * claims every other due message. At most `capacity` messages wait here;
 * beyond that, messages are queued unleased and claimed as before.
 */
export class OutboxHandoff extends Context.Service<OutboxHandoff, {
  /** How long a handed message is leased to this process: as long as a claim's lease. */
  readonly leaseMs: number
  /**
   * A place for one more message, taken before its transaction: true when there is room (the message is then
   * written leased and must be {@link hand}ed or {@link cancel}led), false when it is to be queued unleased.
   */
  readonly reserve: () => boolean
  /** The reserved message's transaction committed: it waits for the worker. */
  readonly hand: (delivery: Delivery) => void
  /** The reserved message's transaction did not commit: its place is free again. */
  readonly cancel: () => void
  /** Up to `limit` handed messages, oldest first, taken out of the handoff. */
  readonly take: (limit: number) => ReadonlyArray<Delivery>
  /** Emits when messages have been handed over since the last take (coalesced). */
  readonly arrivals: Stream.Stream<void>
}>()("@gateway/adapters-pg/OutboxHandoff") {}

/** The handoff of one process. */
export const make = (options: { readonly leaseMs: number; readonly capacity?: number }) =>
  Effect.map(Queue.dropping<void>(1), (arrived) => {
    const capacity = options.capacity ?? 4096
    const handed: Array<Delivery> = []
    let reserved = 0
    return OutboxHandoff.of({
      leaseMs: options.leaseMs,
      reserve: () => {
        if (reserved + handed.length >= capacity) return false
        reserved++
        return true
      },
      hand: (delivery) => {
        reserved--
        handed.push(delivery)
        Queue.offerUnsafe(arrived, undefined)
      },
      cancel: () => {
        reserved--
      },
      take: (limit) => handed.splice(0, limit),
      arrivals: Stream.fromQueue(arrived)
    })
  })

/** The handoff as a layer, shared by the ledger that queues credits and the queue the worker reads. */
export const layer = (options: { readonly leaseMs: number; readonly capacity?: number }): Layer.Layer<OutboxHandoff> =>
  Layer.effect(OutboxHandoff, make(options))
