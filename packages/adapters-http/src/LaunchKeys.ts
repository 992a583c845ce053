import { Context, type Effect } from "effect"
import type { LaunchJwk } from "./api/System.ts"

/**
 * The launch-token signing keys, for the JWKS route and the rotation
 * endpoint. Provided by the app from the key store; `rotate` answers the key
 * that is current afterwards.
 */
export class LaunchKeys extends Context.Service<LaunchKeys, {
  readonly publicKeys: Effect.Effect<ReadonlyArray<LaunchJwk>>
  readonly rotate: Effect.Effect<{ readonly kid: string }>
}>()("@gateway/adapters-http/LaunchKeys") {}
