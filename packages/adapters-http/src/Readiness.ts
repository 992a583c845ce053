import { Context, Effect, Layer } from "effect"

/** Whether the service can take traffic (the database answers). Provided by the app; pg runs `select 1`. */
export class Readiness extends Context.Service<Readiness, {
  readonly check: Effect.Effect<boolean>
}>()("@gateway/adapters-http/Readiness") {
  /** Always ready: for tests and for apps without a database. */
  static readonly always: Layer.Layer<Readiness> = Layer.succeed(Readiness, Readiness.of({ check: Effect.succeed(true) }))
}
