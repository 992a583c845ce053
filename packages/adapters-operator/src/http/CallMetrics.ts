import { Cause, Clock, Effect, Exit, Metric, Option } from "effect"
import type { MerchantId } from "@gateway/domain/Merchant"
import { series } from "@gateway/domain/MetricSeries"
import type { OperatorBadResponse, OperatorTimeout, OperatorUnavailable } from "@gateway/domain/Operator"
import type { PlayerRejected } from "@gateway/domain/Player"
import type { ShopRejected } from "@gateway/domain/Shop"

/**
 * The metrics of calls to operators, on Effect's `Metric` (the default
 * registry, which the gateway's `/metrics` renders). Labels are bounded: a
 * merchant is its numeric id (never a key, URL or token), an outcome one of
 * a few words, an event type one of the wallet's.
 */

/** Seconds, from 5 ms to a minute (the longest time-out). */
const callBoundaries = Metric.boundariesFromIterable([
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
])

const callSeries = (name: string, description: string) =>
  series((attributes) => Metric.histogram(name, { description, boundaries: callBoundaries, attributes }))

const details = callSeries(
  "gateway_operator_details_duration_seconds",
  "Calls to a merchant's Details URLs (player and shop) by merchant id and outcome (ok, rejected, bad_response, timeout, paused, error), in seconds"
)
const debits = callSeries(
  "gateway_wallet_debit_duration_seconds",
  "Synchronous debits by merchant id and outcome (ok, refused, timeout, unavailable, paused, error), in seconds"
)

const timed = (histogram: typeof details) =>
<A, E, R>(
  effect: Effect.Effect<A, E, R>,
  merchantId: MerchantId,
  outcomeOf: (error: E) => string
): Effect.Effect<A, E, R> =>
  Effect.flatMap(Clock.currentTimeNanos, (started) =>
    Effect.onExit(effect, (exit) =>
      Effect.flatMap(Clock.currentTimeNanos, (ended) => {
        const error = Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : Option.none()
        const outcome = Exit.isSuccess(exit) ? "ok" : Option.isSome(error) ? outcomeOf(error.value) : "error"
        const merchant = String(merchantId)
        return Metric.update(
          histogram(`${merchant} ${outcome}`, () => ({ merchant, outcome })),
          Number(ended - started) / 1e9
        )
      })))

/**
 * Times a Details call of the merchant: `ok`, `outcomeOf` its error, or
 * `error` (a defect, or the caller gone).
 */
export const timeDetails = timed(details)

/** Times a debit of the merchant, as {@link timeDetails}. */
export const timeDebit = timed(debits)

/** The outcome of a Details call that failed. */
export const detailsOutcome = (
  error: OperatorTimeout | OperatorBadResponse | OperatorUnavailable | PlayerRejected | ShopRejected
): string =>
  error._tag === "PlayerRejected" || error._tag === "ShopRejected"
    ? "rejected"
    : error._tag === "OperatorTimeout"
    ? "timeout"
    : error._tag === "OperatorUnavailable"
    ? "paused"
    : "bad_response"

const deliveries = series((attributes) =>
  Metric.counter("gateway_webhook_deliveries_total", {
    description: "Webhook delivery attempts by event type and result: delivered, retry (to be tried again) or failed (retries exhausted)",
    incremental: true,
    attributes
  })
)

/** How a delivery attempt ended for its message. */
export type DeliveryResult = "delivered" | "retry" | "failed"

/** Counts one delivery attempt. */
export const countDelivery = (type: string, result: DeliveryResult): Effect.Effect<void> =>
  Metric.update(deliveries(`${type} ${result}`, () => ({ type, result })), 1)
