import { Effect, Layer, Redacted } from "effect"
import { MerchantCredentials } from "@gateway/domain/ports/MerchantCredentials"
import { createHash, generateKeyPairSync, randomBytes, randomInt, randomUUID } from "node:crypto"
import * as PasswordHash from "./PasswordHash.ts"

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export const webhookSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`

const ed25519Pair = () =>
  generateKeyPairSync("ed25519", {
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" }
  })

/** What the credentials need: scrypt's cost for the password and code hashes (log2 N, PasswordHash.defaultCost). */
export interface Options {
  readonly passwordHashCost: number
}

/**
 * Real credentials for a new merchant: a UUID client id and its SHA-256, a
 * random password and a 6-digit e-mail code (both kept only as scrypt hashes,
 * at `options.passwordHashCost`), an Ed25519 key pair in PEM (SPKI / PKCS#8)
 * and a Standard Webhooks secret.
 */
export const layerWith = (options: Options) =>
  Layer.succeed(
    MerchantCredentials,
    MerchantCredentials.of({
      generate: Effect.gen(function*() {
        const clientId = randomUUID()
        const password = randomBytes(18).toString("base64url")
        const otpToken = randomInt(0, 1_000_000).toString().padStart(6, "0")
        const keys = ed25519Pair()
        const [passwordHash, otpHash] = yield* Effect.all([
          PasswordHash.hash(password, options.passwordHashCost),
          PasswordHash.hash(otpToken, options.passwordHashCost)
        ], { concurrency: 2 })
        return {
          clientId,
          hashedClientId: createHash("sha256").update(clientId).digest("hex"),
          password: Redacted.make(password),
          passwordHash,
          publicKey: keys.publicKey,
          privateKey: Redacted.make(keys.privateKey),
          encryptionKey: Redacted.make(webhookSecret()),
          otpToken: Redacted.make(otpToken),
          otpHash
        }
      }),
      webhookSecret: Effect.sync(() => Redacted.make(webhookSecret())),
      signingKeyPair: Effect.sync(() => {
        const keys = ed25519Pair()
        return { publicKey: keys.publicKey, privateKey: Redacted.make(keys.privateKey) }
      })
    })
  )

/** {@link layerWith} at scrypt's default cost. */
export const layer = layerWith({ passwordHashCost: PasswordHash.defaultCost })
