import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** RFC 4648 base32, without padding: how authenticator apps take a secret. */
export const toBase32 = (bytes: Uint8Array): string => {
  let bits = 0
  let value = 0
  let out = ""
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31]
  return out
}

/** The bytes of a base32 secret (case and padding ignored); undefined when it is not base32. */
export const fromBase32 = (text: string): Buffer | undefined => {
  const clean = text.toUpperCase().replace(/=+$/, "")
  let bits = 0
  let value = 0
  const out: Array<number> = []
  for (const char of clean) {
    const index = alphabet.indexOf(char)
    if (index < 0) return undefined
    value = ((value << 5) | index) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

/** HOTP (RFC 4226): HMAC of the 8-byte counter, dynamically truncated to `digits` digits. */
export const hotp = (key: Uint8Array, counter: bigint, digits = 6, algorithm: "sha1" | "sha256" | "sha512" = "sha1"): string => {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(counter)
  const mac = createHmac(algorithm, key).update(message).digest()
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, "0")
}

/** TOTP (RFC 6238): HOTP of the number of `step`-second periods since the epoch at `unixSeconds`. */
export const totp = (
  key: Uint8Array,
  unixSeconds: number,
  options: { readonly digits?: number; readonly step?: number; readonly algorithm?: "sha1" | "sha256" | "sha512" } = {}
): string => hotp(key, BigInt(Math.floor(unixSeconds / (options.step ?? 30))), options.digits ?? 6, options.algorithm ?? "sha1")

/** A new secret of 20 random bytes (the size of an HMAC-SHA1 key), base32. */
export const newSecret = (): string => toBase32(randomBytes(20))

/**
 * Whether `code` is the 6-digit TOTP of the base32 `secret` at `unixSeconds`,
 * one 30 s step either side allowed for clock drift; compared in constant time.
 */
export const verify = (secret: string, code: string, unixSeconds: number): boolean => {
  const key = fromBase32(secret)
  if (key === undefined || !/^\d{6}$/.test(code)) return false
  const given = Buffer.from(code)
  let found = false
  for (const drift of [-30, 0, 30]) {
    if (timingSafeEqual(Buffer.from(totp(key, unixSeconds + drift)), given)) found = true
  }
  return found
}
