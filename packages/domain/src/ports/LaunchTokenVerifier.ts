import type { Effect } from "effect"
import { Context } from "effect"
import type { Unauthorized } from "../Auth.ts"
import type { LaunchClaims } from "../LaunchToken.ts"

/**
 * Verifies a launch token's signature, audience and expiry. With `acceptExpired`, a token past its `exp` whose
 * signature, issuer and audience verify is accepted too (a page resumed after its link expired); a forged one never.
 */
export class LaunchTokenVerifier extends Context.Service<LaunchTokenVerifier, {
  verify(token: string, options?: { readonly acceptExpired?: boolean }): Effect.Effect<LaunchClaims, Unauthorized>
}>()("@gateway/domain/ports/LaunchTokenVerifier") {}
