import { Redacted } from "effect"
import { createHmac, createPrivateKey, createSecretKey, type KeyObject, sign } from "node:crypto"

/** A secret replaced by a rotation, signing next to the new one until `untilMs` (epoch milliseconds). */
export interface RetiringSecret {
  readonly value: Redacted.Redacted<string>
  readonly untilMs: number
}

/** The secrets a merchant's messages are signed with. */
export interface SigningSecrets {
  /** The merchant's Standard Webhooks secret, `whsec_<base64>`. */
  readonly encryptionKey: Redacted.Redacted<string>
  /** The merchant's Ed25519 private key, PKCS#8 PEM. */
  readonly privateKey: Redacted.Redacted<string>
  /** The encryptionKey of before a rotation, while its overlap lasts. */
  readonly previousEncryptionKey?: RetiringSecret | undefined
  /** The private key of before a rotation, while its overlap lasts. */
  readonly previousPrivateKey?: RetiringSecret | undefined
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
  /** The replaced HMAC key of a rotation, signing too until `untilMs`. */
  readonly previousHmacKey?: { readonly key: KeyObject; readonly untilMs: number } | undefined
  /** The replaced Ed25519 key of a rotation, signing too until `untilMs`. */
  readonly previousPrivateKey?: { readonly key: KeyObject; readonly untilMs: number } | undefined
}

const hmacKeyOf = (secret: Redacted.Redacted<string>) => {
  const text = Redacted.value(secret)
  return createSecretKey(Buffer.from(text.startsWith("whsec_") ? text.slice(6) : text, "base64"))
}

/** Parses a merchant's secrets for signing (`whsec_` base64 secret, PKCS#8 PEM key), the previous ones too. */
export const prepare = (secrets: SigningSecrets): SigningKeys => {
  const { previousEncryptionKey: hmac, previousPrivateKey: ed25519 } = secrets
  return {
    hmacKey: hmacKeyOf(secrets.encryptionKey),
    privateKey: createPrivateKey(Redacted.value(secrets.privateKey)),
    previousHmacKey: hmac === undefined ? undefined : { key: hmacKeyOf(hmac.value), untilMs: hmac.untilMs },
    previousPrivateKey: ed25519 === undefined
      ? undefined
      : { key: createPrivateKey(Redacted.value(ed25519.value)), untilMs: ed25519.untilMs }
  }
}

/**
 * Signs a message by the Standard Webhooks scheme: `v1,<base64 HMAC-SHA256>`
 * with the encryptionKey and `v1a,<base64 Ed25519>` with the private key,
 * both over `id.timestamp.body`. During a rotation's overlap (the message's
 * time before the previous key's `untilMs`) the previous key signs too,
 * after the new one: `v1,<new> v1,<old> v1a,<new> v1a,<old>`, space separated.
 */
export const signMessage = (keys: SigningKeys, id: string, timestampSeconds: number, body: string, nowMs = timestampSeconds * 1000): SignedHeaders => {
  const content = `${id}.${timestampSeconds}.${body}`
  const bytes = Buffer.from(content)
  const hmac = (key: KeyObject) => `v1,${createHmac("sha256", key).update(content).digest("base64")}`
  const ed25519 = (key: KeyObject) => `v1a,${sign(null, bytes, key).toString("base64")}`
  const { previousHmacKey: oldHmac, previousPrivateKey: oldEd25519 } = keys
  const signatures = oldHmac === undefined && oldEd25519 === undefined
    ? `${hmac(keys.hmacKey)} ${ed25519(keys.privateKey)}`
    : [
      hmac(keys.hmacKey),
      ...(oldHmac !== undefined && nowMs < oldHmac.untilMs ? [hmac(oldHmac.key)] : []),
      ed25519(keys.privateKey),
      ...(oldEd25519 !== undefined && nowMs < oldEd25519.untilMs ? [ed25519(oldEd25519.key)] : [])
    ].join(" ")
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signatures
  }
}
