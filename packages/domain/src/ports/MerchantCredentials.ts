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
}>()("@gateway/domain/ports/MerchantCredentials") {}
