/**
 * What a plain server holds after start-up: every merchant's signing keys,
 * decrypted (AES-256-GCM under DATA_ENCRYPTION_KEY) and parsed into key
 * objects once, as a server loads its configuration. Merchants added later
 * are read and parsed on first use.
 */
import { Redacted } from "effect"
import { createDecipheriv } from "node:crypto"
import type pg from "pg"
import { prepare, type SigningKeys } from "@gateway/adapters-operator/webhooks/Signature"

/** Opens a secret stored as `v1:<iv>:<tag>:<ciphertext>` (base64url) under AES-256-GCM. */
const decrypt = (key: Buffer, stored: string): string => {
  const [version, iv, tag, body] = stored.split(":")
  if (version !== "v1" || iv === undefined || tag === undefined || body === undefined) throw new Error("bad ciphertext")
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
  decipher.setAuthTag(Buffer.from(tag, "base64url"))
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8")
}

interface KeyRow {
  readonly id: number
  readonly private_key_enc: string
  readonly encryption_key_enc: string
}

const parse = (dataKey: Buffer, row: KeyRow): SigningKeys =>
  prepare({
    encryptionKey: Redacted.make(decrypt(dataKey, row.encryption_key_enc)),
    privateKey: Redacted.make(decrypt(dataKey, row.private_key_enc))
  })

/** The signing keys of every merchant, parsed at start; `get` reads a merchant unknown at start once. */
export const loadSigningKeys = async (pool: pg.Pool, dataKey: Buffer) => {
  const keys = new Map<number, SigningKeys>()
  const { rows } = await pool.query<KeyRow>("SELECT id, private_key_enc, encryption_key_enc FROM merchants")
  for (const row of rows) keys.set(row.id, parse(dataKey, row))
  return {
    keys,
    get: async (merchantId: number): Promise<SigningKeys | undefined> => {
      const known = keys.get(merchantId)
      if (known !== undefined) return known
      const found = await pool.query<KeyRow>(
        "SELECT id, private_key_enc, encryption_key_enc FROM merchants WHERE id = $1",
        [merchantId]
      )
      const row = found.rows[0]
      if (row === undefined) return undefined
      const parsed = parse(dataKey, row)
      keys.set(merchantId, parsed)
      return parsed
    }
  }
}

/** A merchant's keys as the servers look them up. */
export type KeyStore = Awaited<ReturnType<typeof loadSigningKeys>>
