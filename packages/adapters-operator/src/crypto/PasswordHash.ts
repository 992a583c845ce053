import { Effect } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

const N = 2 ** 15
const r = 8
const p = 1
const KEY_LENGTH = 32
const MAX_MEM = 64 * 1024 * 1024

const derive = (secret: string, salt: Buffer, n: number, rr: number, pp: number) =>
  Effect.callback<Buffer>((resume) => {
    scrypt(secret, salt, KEY_LENGTH, { N: n, r: rr, p: pp, maxmem: MAX_MEM }, (error, key) =>
      resume(error === null ? Effect.succeed(key) : Effect.die(error))
    )
  })

/** A slow, salted hash of a secret: `scrypt$N$r$p$salt$hash` (base64url), safe to store. */
export const hash = (secret: string): Effect.Effect<string> =>
  Effect.suspend(() => {
    const salt = randomBytes(16)
    return derive(secret, salt, N, r, p).pipe(
      Effect.map((key) => `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`)
    )
  })

/** Whether `secret` matches a stored {@link hash}, compared in constant time. */
export const verify = (secret: string, stored: string): Effect.Effect<boolean> => {
  const [scheme, n, rr, pp, salt, key] = stored.split("$")
  if (scheme !== "scrypt" || salt === undefined || key === undefined) return Effect.succeed(false)
  const expected = Buffer.from(key, "base64url")
  return derive(secret, Buffer.from(salt, "base64url"), Number(n), Number(rr), Number(pp)).pipe(
    Effect.map((actual) => actual.length === expected.length && timingSafeEqual(actual, expected))
  )
}
