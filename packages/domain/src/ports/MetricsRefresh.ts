import { Context, Effect } from "effect"

/**
 * Brings up to date, before a metrics scrape, the gauges that are read from
 * storage rather than counted as things happen (the outbox's depth, the
 * database connections). It never fails and answers within about 2 s: a
 * value that cannot be read in time keeps its last one, so a scrape during an
 * outage still answers.
 *
 * Unlike the other ports (`Context.Service`s that a use case cannot do
 * without) this one is a `Context.Reference` with a no-op default, on
 * purpose: it only freshens a few gauges, `/metrics` is correct without it
 * (it shows what was counted), and so an HTTP side served over other
 * storage, or in a test, needs no implementation of it.
 */
export const MetricsRefresh = Context.Reference<{ readonly refresh: Effect.Effect<void> }>(
  "@gateway/domain/ports/MetricsRefresh",
  { defaultValue: () => ({ refresh: Effect.void }) }
)
