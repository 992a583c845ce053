import type { Effect } from "effect"
import { Context } from "effect"
import type { LaunchClaims } from "../LaunchToken.ts"

/** Signs launch tokens (EdDSA JWTs in production). */
export class LaunchTokenSigner extends Context.Service<LaunchTokenSigner, {
  sign(claims: LaunchClaims): Effect.Effect<string>
}>()("@gateway/domain/ports/LaunchTokenSigner") {}
