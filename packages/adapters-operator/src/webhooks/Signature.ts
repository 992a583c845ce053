import { Redacted } from "effect"
import { createHmac, createPrivateKey, createSecretKey, type KeyObject, sign } from "node:crypto"

/** The secrets a merchant's messages are signed with. */
export interface SigningSecrets {
  /** The merchant's Standard Webhooks secret, `whsec_<base64>`. */
  readonly encryptionKey: Redacted.Redacted<string>
  /** The merchant's Ed25519 private key, PKCS#8 PEM. */
  readonly privateKey: Redacted.Redacted<string>
}

/** The three Standard Webhooks headers of one message. */
export interface SignedHeaders {
  readonly "webhook-id": string
  readonly "webhook-timestamp": string
  readonly "webhook-signature": string
}

/**
 * A merchant's secrets parsed once: the HMAC key and the Ed25519 key, as key
 * objects (an HMAC over a key object costs a fifth of one over raw bytes,
 * which are copied into a new key on every call).
 */
export interface SigningKeys {
  readonly hmacKey: KeyObject
  readonly privateKey: KeyObject
}

/** Parses a merchant's secrets for signing (`whsec_` base64 secret, PKCS#8 PEM key). */
export const prepare = (secrets: SigningSecrets): SigningKeys => {
  const secret = Redacted.value(secrets.encryptionKey)
  return {
    hmacKey: createSecretKey(Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64")),
    privateKey: createPrivateKey(Redacted.value(secrets.privateKey))
  }
}

/**
 * Signs a message by the Standard Webhooks scheme: `v1,<base64 HMAC-SHA256>`
 * with the encryptionKey and `v1a,<base64 Ed25519>` with the private key,
 * both over `id.timestamp.body`.
 */
export const signMessage = (keys: SigningKeys, id: string, timestampSeconds: number, body: string): SignedHeaders => {
  const content = `${id}.${timestampSeconds}.${body}`
  const v1 = createHmac("sha256", keys.hmacKey).update(content).digest("base64")
  const v1a = sign(null, Buffer.from(content), keys.privateKey).toString("base64")
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": `v1,${v1} v1a,${v1a}`
  }
}
