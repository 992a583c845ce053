import type { Effect, Redacted } from "effect"
import { Context } from "effect"

/** Credentials generated for a new merchant: plaintext secrets to show once, and what may be stored. */
export interface GeneratedCredentials {
  readonly clientId: string
  readonly hashedClientId: string
  readonly password: Redacted.Redacted<string>
  readonly passwordHash: string
  readonly publicKey: string
  readonly privateKey: Redacted.Redacted<string>
  readonly encryptionKey: Redacted.Redacted<string>
  readonly otpToken: Redacted.Redacted<string>
  readonly otpHash: string
}

/** Makes the credentials of a new merchant (random values, key pairs, slow hashes). */
export class MerchantCredentials extends Context.Service<MerchantCredentials, {
  readonly generate: Effect.Effect<GeneratedCredentials>
  /** A new Standard Webhooks secret, `whsec_<base64 of 32 random bytes>` (a rotation's). */
  readonly webhookSecret: Effect.Effect<Redacted.Redacted<string>>
  /** A new Ed25519 pair in PEM (SPKI public, PKCS#8 private), a rotation's. */
  readonly signingKeyPair: Effect.Effect<{ readonly publicKey: string; readonly privateKey: Redacted.Redacted<string> }>
}>()("@gateway/domain/ports/MerchantCredentials") {}
