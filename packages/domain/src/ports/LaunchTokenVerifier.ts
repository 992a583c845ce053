import type { Effect } from "effect"
import { Context } from "effect"
import type { Unauthorized } from "../Auth.ts"
import type { LaunchClaims } from "../LaunchToken.ts"

/** Verifies a launch token's signature, audience and expiry. */
export class LaunchTokenVerifier extends Context.Service<LaunchTokenVerifier, {
  verify(token: string): Effect.Effect<LaunchClaims, Unauthorized>
}>()("@gateway/domain/ports/LaunchTokenVerifier") {}
