import type { Effect } from "effect"
import { Context } from "effect"

/** Where unique ids come from. */
export class Ids extends Context.Service<Ids, {
  /** A random UUID (v4). */
  readonly uuid: Effect.Effect<string>
}>()("@gateway/domain/ports/Ids") {}
