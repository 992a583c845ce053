import { Effect, Layer } from "effect"
import { Ids } from "@gateway/domain/ports/Ids"
import { randomUUID } from "node:crypto"

/** Random v4 UUIDs from `node:crypto`. */
export const layer = Layer.succeed(Ids, Ids.of({ uuid: Effect.sync(() => randomUUID()) }))
