import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"

/** A stored ciphertext that does not open under the server's key (wrong key, tampered, unknown version). */
export class DecryptionFailed extends Schema.TaggedError<DecryptionFailed>()("DecryptionFailed", {}) {
  override get message(): string {
    return "stored secret could not be decrypted with DATA_ENCRYPTION_KEY"
  }
}

/** DATA_ENCRYPTION_KEY is missing or malformed; the message is one line for the operator. */
export class DataCipherConfigError extends Schema.TaggedError<DataCipherConfigError>()("DataCipherConfigError", {
  message: Schema.String
}) {}

/**
 * Encrypts secrets at rest with AES-256-GCM. The stored form is
 * `v1:<iv>:<tag>:<ciphertext>`, each part base64url.
 */
export class DataCipher extends Context.Service<DataCipher, {
  encrypt(plaintext: Redacted.Redacted<string>): Effect.Effect<string>
  decrypt(stored: string): Effect.Effect<Redacted.Redacted<string>, DecryptionFailed>
}>()("@gateway/adapters-pg/db/DataCipher") {}

/** Reads a 32-byte key written as 64 hex digits or as base64 / base64url. */
export const parseKey = (text: string): Option.Option<Buffer> => {
  const trimmed = text.trim()
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64")
  return bytes.length === 32 ? Option.some(bytes) : Option.none()
}

/** A cipher under a 32-byte key. */
export const make = (key: Redacted.Redacted<Buffer>): DataCipher["Service"] => {
  const secret = Redacted.value(key)
  return DataCipher.of({
    encrypt: (plaintext) =>
      Effect.sync(() => {
        const iv = randomBytes(12)
        const cipher = createCipheriv("aes-256-gcm", secret, iv)
        const body = Buffer.concat([cipher.update(Redacted.value(plaintext), "utf8"), cipher.final()])
        return ["v1", iv, cipher.getAuthTag(), body].map((p) => typeof p === "string" ? p : p.toString("base64url"))
          .join(":")
      }),
    decrypt: (stored) =>
      Effect.try({
        try: () => {
          const [version, iv, tag, body, ...rest] = stored.split(":")
          if (version !== "v1" || iv === undefined || tag === undefined || body === undefined || rest.length > 0) {
            throw new Error("unknown format")
          }
          const decipher = createDecipheriv("aes-256-gcm", secret, Buffer.from(iv, "base64url"))
          decipher.setAuthTag(Buffer.from(tag, "base64url"))
          const text = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8")
          return Redacted.make(text)
        },
        catch: () => new DecryptionFailed()
      })
  })
}

/** A cipher under a given key. */
export const layer = (key: Redacted.Redacted<Buffer>): Layer.Layer<DataCipher> => Layer.succeed(DataCipher, make(key))

const keyFile = (dataDir: string) =>
  Effect.try({
    try: () => {
      const file = path.join(dataDir, "encryption.key")
      fs.mkdirSync(dataDir, { recursive: true })
      try {
        fs.writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { flag: "wx", mode: 0o600 })
      } catch (error) {
        if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error
      }
      return { file, text: fs.readFileSync(file, "utf8") }
    },
    catch: (error) => new DataCipherConfigError({ message: `cannot create the data encryption key file: ${String(error)}` })
  })

/**
 * The key of a cipher: `DATA_ENCRYPTION_KEY` when given (32 bytes, hex or
 * base64), else a key generated once into `<dataDir>/encryption.key` (mode
 * 0600) and reused. The app allows the generated key only for an embedded
 * database.
 */
export const keyOrFile = (
  key: Option.Option<Redacted.Redacted<string>>,
  dataDir: string
): Effect.Effect<Redacted.Redacted<Buffer>, DataCipherConfigError> =>
  Effect.gen(function*() {
    if (Option.isSome(key)) {
      const parsed = parseKey(Redacted.value(key.value))
      if (Option.isNone(parsed)) {
        return yield* new DataCipherConfigError({
          message: "DATA_ENCRYPTION_KEY must be 32 bytes written as 64 hex digits or base64"
        })
      }
      return Redacted.make(parsed.value)
    }
    const { file, text } = yield* keyFile(dataDir)
    const parsed = parseKey(text)
    if (Option.isNone(parsed)) {
      return yield* new DataCipherConfigError({ message: `${file} does not hold a 32-byte base64 key` })
    }
    return Redacted.make(parsed.value)
  })
