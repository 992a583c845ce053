import type { Effect } from "effect"
import { Context } from "effect"
import type { Unauthorized } from "../Auth.ts"
import type { LaunchClaims } from "../LaunchToken.ts"

/** Verifies a launch token's signature, audience and expiry. */
export class LaunchTokenVerifier extends Context.Service<LaunchTokenVerifier, {
  verify(token: string): Effect.Effect<LaunchClaims, Unauthorized>
  /**
   * The claims of a token whose signature, audience and issuer verify, expired or not: only for what the
   * page shows on the screen that says so (its language and the way back to the casino), never to open a session.
   */
  verifyIgnoringExpiry(token: string): Effect.Effect<LaunchClaims, Unauthorized>
}>()("@gateway/domain/ports/LaunchTokenVerifier") {}
