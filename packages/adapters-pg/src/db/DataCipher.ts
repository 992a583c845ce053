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
 * `v1:<iv>:<tag>:<ciphertext>`, each part base64url. During a rotation it
 * holds the previous keys too: they still decrypt, only the current key
 * encrypts, and `reencrypt` moves a stored secret to the current key.
 */
export class DataCipher extends Context.Service<DataCipher, {
  encrypt(plaintext: Redacted.Redacted<string>): Effect.Effect<string>
  decrypt(stored: string): Effect.Effect<Redacted.Redacted<string>, DecryptionFailed>
  /** The same secret under the current key (a fresh IV), from a form any of the keys opens. */
  reencrypt(stored: string): Effect.Effect<string, DecryptionFailed>
}>()("@gateway/adapters-pg/db/DataCipher") {}

/** The keys of a cipher: `current` encrypts and decrypts, `previous` (a rotation's old keys) only decrypt. */
export interface DataKeys {
  readonly current: Redacted.Redacted<Buffer>
  readonly previous: ReadonlyArray<Redacted.Redacted<Buffer>>
}

/** Reads a 32-byte key written as 64 hex digits or as base64 / base64url. */
export const parseKey = (text: string): Option.Option<Buffer> => {
  const trimmed = text.trim()
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64")
  return bytes.length === 32 ? Option.some(bytes) : Option.none()
}

const seal = (key: Buffer, plaintext: string): string => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return ["v1", iv, cipher.getAuthTag(), body].map((p) => typeof p === "string" ? p : p.toString("base64url")).join(":")
}

/** The plaintext of `stored` under `key`, or undefined when it does not open (the GCM tag checks the key). */
const open = (key: Buffer, stored: string): string | undefined => {
  const [version, iv, tag, body, ...rest] = stored.split(":")
  if (version !== "v1" || iv === undefined || tag === undefined || body === undefined || rest.length > 0) return undefined
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
    decipher.setAuthTag(Buffer.from(tag, "base64url"))
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8")
  } catch {
    return undefined
  }
}

/** A cipher under a 32-byte key, and the previous keys of a rotation (tried after it, in order, to decrypt). */
export const make = (
  key: Redacted.Redacted<Buffer>,
  previous: ReadonlyArray<Redacted.Redacted<Buffer>> = []
): DataCipher["Service"] => {
  const current = Redacted.value(key)
  const keys = [current, ...previous.map((k) => Redacted.value(k))]
  const plaintextOf = (stored: string) =>
    Effect.suspend(() => {
      for (const k of keys) {
        const text = open(k, stored)
        if (text !== undefined) return Effect.succeed(text)
      }
      return Effect.fail(new DecryptionFailed())
    })
  return DataCipher.of({
    encrypt: (plaintext) => Effect.sync(() => seal(current, Redacted.value(plaintext))),
    decrypt: (stored) => Effect.map(plaintextOf(stored), (text) => Redacted.make(text)),
    reencrypt: (stored) => Effect.map(plaintextOf(stored), (text) => seal(current, text))
  })
}

/** A cipher under a given key. */
export const layer = (key: Redacted.Redacted<Buffer>): Layer.Layer<DataCipher> => Layer.succeed(DataCipher, make(key))

/** A cipher under the keys of a rotation: the current one, and the previous ones that still decrypt. */
export const layerKeys = (keys: DataKeys): Layer.Layer<DataCipher> =>
  Layer.succeed(DataCipher, make(keys.current, keys.previous))

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
 * `DATA_ENCRYPTION_KEY`'s keys: one, or during a rotation several separated
 * by commas, the new one first (it encrypts; all decrypt); each 32 bytes as
 * 64 hex digits or base64. The message never quotes a key.
 */
export const parseKeys = (text: string): Effect.Effect<DataKeys, DataCipherConfigError> => {
  const parts = text.split(",").map((part) => part.trim())
  const keys = parts.flatMap((part) => Option.toArray(parseKey(part)))
  const [current, ...previous] = keys
  if (current === undefined || keys.length !== parts.length || parts.length > 8) {
    return Effect.fail(
      new DataCipherConfigError({
        message: parts.length === 1
          ? "DATA_ENCRYPTION_KEY must be 32 bytes written as 64 hex digits or base64"
          : "DATA_ENCRYPTION_KEY must list at most 8 keys, each 32 bytes written as 64 hex digits or base64"
      })
    )
  }
  return Effect.succeed({ current: Redacted.make(current), previous: previous.map((k) => Redacted.make(k)) })
}

/**
 * The keys of a cipher: `DATA_ENCRYPTION_KEY` when given ({@link parseKeys}),
 * else a key generated once into `<dataDir>/encryption.key` (mode 0600) and
 * reused. The app allows the generated key only for an embedded database.
 */
export const keysOrFile = (
  key: Option.Option<Redacted.Redacted<string>>,
  dataDir: string
): Effect.Effect<DataKeys, DataCipherConfigError> =>
  Effect.gen(function*() {
    if (Option.isSome(key)) return yield* parseKeys(Redacted.value(key.value))
    const { file, text } = yield* keyFile(dataDir)
    const parsed = parseKey(text)
    if (Option.isNone(parsed)) {
      return yield* new DataCipherConfigError({ message: `${file} does not hold a 32-byte base64 key` })
    }
    return { current: Redacted.make(parsed.value), previous: [] }
  })

/** The current key of {@link keysOrFile}. */
export const keyOrFile = (
  key: Option.Option<Redacted.Redacted<string>>,
  dataDir: string
): Effect.Effect<Redacted.Redacted<Buffer>, DataCipherConfigError> =>
  Effect.map(keysOrFile(key, dataDir), (keys) => keys.current)
