import type { Effect } from "effect"
import { Context } from "effect"

/** Whether this instance can take traffic: its database answers. */
export class Readiness extends Context.Service<Readiness, {
  readonly check: Effect.Effect<boolean>
}>()("@gateway/domain/ports/Readiness") {}
