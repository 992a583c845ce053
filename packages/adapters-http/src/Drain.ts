import { Context, Effect, Layer } from "effect"

/**
 * Whether this instance is shutting down. From the moment it is, `/ready`
 * answers 503 NOT_READY while every other route is served as before, so a
 * load balancer takes the instance out of rotation before its listener
 * closes (CONTRACT §7).
 */
export interface Drain {
  readonly draining: Effect.Effect<boolean>
  /** Marks the instance as shutting down; it never becomes ready again. */
  readonly begin: Effect.Effect<void>
}

const make = (): Drain => {
  let draining = false
  return {
    draining: Effect.sync(() => draining),
    begin: Effect.sync(() => {
      draining = true
    })
  }
}

/** This instance's {@link Drain}; without {@link layer}, one of its own per use (never draining unless begun). */
export const Drain = Context.Reference<Drain>("@gateway/adapters-http/Drain", { defaultValue: make })

/** A {@link Drain} of its own, shared by `/ready` and whoever stops the instance. */
export const layer: Layer.Layer<never> = Layer.sync(Drain, make)
