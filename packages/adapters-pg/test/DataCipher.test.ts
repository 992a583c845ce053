import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DataCipher, DecryptionFailed, keyOrFile, layer, make, parseKeys } from "../src/db/DataCipher.ts"

/** The cipher under `DATA_ENCRYPTION_KEY` = `key` (absent: the key file in `dataDir`). */
const withKey = (key: string | undefined, dataDir = "/nonexistent") =>
  Effect.flatMap(
    keyOrFile(key === undefined ? Option.none() : Option.some(Redacted.make(key)), dataDir),
    (bytes) => Effect.succeed(layer(bytes))
  )

const run = <A, E>(effect: Effect.Effect<A, E, DataCipher>, key: string | undefined, dataDir?: string) =>
  Effect.flatMap(withKey(key, dataDir), (cipher) => Effect.provide(effect, cipher))

const roundTrip = Effect.gen(function*() {
  const cipher = yield* DataCipher
  const stored = yield* cipher.encrypt(Redacted.make("whsec_secret"))
  return { stored, plain: Redacted.value(yield* cipher.decrypt(stored)) }
})

describe("DataCipher", () => {
  it.effect("encrypts with a fresh IV into v1:iv:tag:ciphertext and detects tampering", () =>
    Effect.gen(function*() {
      const cipher = yield* DataCipher
      const a = yield* cipher.encrypt(Redacted.make("private key"))
      const b = yield* cipher.encrypt(Redacted.make("private key"))
      assert.notStrictEqual(a, b)
      assert.match(a, /^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/)
      assert.notInclude(a, "private")
      assert.strictEqual(Redacted.value(yield* cipher.decrypt(a)), "private key")
      const parts = a.split(":")
      const body = parts[3] ?? ""
      const tampered = [...parts.slice(0, 3), `${body[0] === "A" ? "B" : "A"}${body.slice(1)}`].join(":")
      assert.instanceOf(yield* Effect.flip(cipher.decrypt(tampered)), DecryptionFailed)
      assert.instanceOf(yield* Effect.flip(cipher.decrypt("v2:x:y:z")), DecryptionFailed)
    }).pipe(Effect.provide(layer(Redacted.make(randomBytes(32))))))

  it.effect("reads DATA_ENCRYPTION_KEY as hex or base64 and refuses other lengths", () =>
    Effect.gen(function*() {
      const key = randomBytes(32)
      const hex = yield* run(roundTrip, key.toString("hex"))
      const b64 = yield* run(roundTrip, key.toString("base64"))
      assert.strictEqual(hex.plain, "whsec_secret")
      const crossed = yield* run(
        Effect.gen(function*() {
          return Redacted.value(yield* (yield* DataCipher).decrypt(hex.stored))
        }),
        key.toString("base64")
      )
      assert.strictEqual(crossed, b64.plain)
      const short = yield* Effect.flip(run(roundTrip, "abcd"))
      assert.strictEqual(short.message, "DATA_ENCRYPTION_KEY must be 32 bytes written as 64 hex digits or base64")
    }))

  it.effect("in embedded mode generates DATA_DIR/encryption.key once (mode 0600) and reuses it", () =>
    Effect.gen(function*() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-key-"))
      const dataDir = path.join(dir, "data")
      const first = yield* run(roundTrip, undefined, dataDir)
      const file = path.join(dir, "data", "encryption.key")
      assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600)
      const again = yield* run(
        Effect.gen(function*() {
          return Redacted.value(yield* (yield* DataCipher).decrypt(first.stored))
        }),
        undefined,
        dataDir
      )
      assert.strictEqual(again, "whsec_secret")
      fs.rmSync(dir, { recursive: true, force: true })
    }))

  it.effect("during a rotation (`new,old`) the old key still decrypts, only the new one encrypts, reencrypt moves a secret to it", () =>
    Effect.gen(function*() {
      const [older, newer] = [randomBytes(32), randomBytes(32)]
      const keys = yield* parseKeys(`${newer.toString("base64")}, ${older.toString("hex")}`)
      const rotating = make(keys.current, keys.previous)
      const oldOnly = make(Redacted.make(older))
      const newOnly = make(Redacted.make(newer))
      const underOld = yield* oldOnly.encrypt(Redacted.make("whsec_old"))
      assert.strictEqual(Redacted.value(yield* rotating.decrypt(underOld)), "whsec_old")
      assert.instanceOf(yield* Effect.flip(newOnly.decrypt(underOld)), DecryptionFailed)
      const written = yield* rotating.encrypt(Redacted.make("whsec_new"))
      assert.strictEqual(Redacted.value(yield* newOnly.decrypt(written)), "whsec_new")
      assert.instanceOf(yield* Effect.flip(oldOnly.decrypt(written)), DecryptionFailed)
      const moved = yield* rotating.reencrypt(underOld)
      assert.strictEqual(Redacted.value(yield* newOnly.decrypt(moved)), "whsec_old")
      assert.instanceOf(yield* Effect.flip(newOnly.reencrypt(underOld)), DecryptionFailed)

      const bad = yield* Effect.flip(parseKeys(`${newer.toString("base64")},not-a-key-${older.toString("hex")}`))
      assert.strictEqual(
        bad.message,
        "DATA_ENCRYPTION_KEY must list at most 8 keys, each 32 bytes written as 64 hex digits or base64"
      )
      assert.notInclude(bad.message, older.toString("hex"))
    }))
})
