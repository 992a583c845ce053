import type { Effect, Redacted } from "effect"
import { Context } from "effect"
import type { LaunchJwk } from "../LaunchToken.ts"

/** A launch-token signing key: its id (the JWK thumbprint of its public half), PKCS#8 PEM and public JWK. */
export interface LaunchSigningKey {
  readonly kid: string
  readonly privateKey: Redacted.Redacted<string>
  readonly publicJwk: LaunchJwk
}

/**
 * The launch signing keys shared by every server instance. `current` is the
 * newest live key; `publicKeys` are the live keys plus the retired ones that
 * live tokens may still carry (published); `resumableKeys` are those plus the
 * retired ones whose links a page may still resume (LaunchPolicy's
 * `resumableKeyRetentionSeconds`; never published); `rotate` makes a new key
 * current and retires the others.
 */
export class LaunchKeyStore extends Context.Service<LaunchKeyStore, {
  readonly current: Effect.Effect<LaunchSigningKey>
  readonly publicKeys: Effect.Effect<ReadonlyArray<LaunchJwk>>
  readonly resumableKeys: Effect.Effect<ReadonlyArray<LaunchJwk>>
  readonly rotate: Effect.Effect<LaunchSigningKey>
}>()("@gateway/domain/ports/LaunchKeyStore") {}

/** Makes fresh launch signing keys (Ed25519 in production), for a store that creates or rotates them. */
export class LaunchKeyGenerator extends Context.Service<LaunchKeyGenerator, {
  readonly generate: Effect.Effect<LaunchSigningKey>
}>()("@gateway/domain/ports/LaunchKeyGenerator") {}
