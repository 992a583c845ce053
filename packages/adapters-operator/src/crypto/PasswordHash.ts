import { Effect } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

/**
 * scrypt's cost as the power of two of N: 2^15 (32 MiB, ~100–200 ms of CPU on one core of a small server) unless
 * the server is told otherwise (`PASSWORD_HASH_COST`).
 */
export const defaultCost = 15
/** The costs a server may be given: 2^10 (1 MiB, a few ms: for test runs) to 2^20 (1 GiB). */
export const costRange = { minimum: 10, maximum: 20 } as const
const r = 8
const p = 1
const KEY_LENGTH = 32

const derive = (secret: string, salt: Buffer, n: number, rr: number, pp: number) =>
  Effect.callback<Buffer>((resume) => {
    // scrypt needs 128·N·r bytes; twice that leaves room for Node's own accounting.
    scrypt(secret, salt, KEY_LENGTH, { N: n, r: rr, p: pp, maxmem: 256 * n * rr }, (error, key) =>
      resume(error === null ? Effect.succeed(key) : Effect.die(error))
    )
  })

/**
 * A slow, salted hash of a secret: `scrypt$N$r$p$salt$hash` (base64url), safe to store. `cost` is log2 N
 * ({@link defaultCost}); the stored text carries N, so a hash made at one cost verifies at any later one.
 */
export const hash = (secret: string, cost: number = defaultCost): Effect.Effect<string> =>
  Effect.suspend(() => {
    const n = 2 ** cost
    const salt = randomBytes(16)
    return derive(secret, salt, n, r, p).pipe(
      Effect.map((key) => `scrypt$${n}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`)
    )
  })

/** A stored N, r and p this server derives with: N a power of two within {@link costRange}, r ≤ 16, p ≤ 4. */
const usable = (n: number, rr: number, pp: number) => {
  const cost = Math.log2(n)
  return Number.isInteger(cost) && cost >= costRange.minimum && cost <= costRange.maximum &&
    Number.isInteger(rr) && rr >= 1 && rr <= 16 && Number.isInteger(pp) && pp >= 1 && pp <= 4
}

/** Whether `secret` matches a stored {@link hash}, compared in constant time; false for a hash of another shape. */
export const verify = (secret: string, stored: string): Effect.Effect<boolean> => {
  const [scheme, nText, rText, pText, salt, key] = stored.split("$")
  const [n, rr, pp] = [Number(nText), Number(rText), Number(pText)]
  if (scheme !== "scrypt" || salt === undefined || key === undefined || !usable(n, rr, pp)) return Effect.succeed(false)
  const expected = Buffer.from(key, "base64url")
  return derive(secret, Buffer.from(salt, "base64url"), n, rr, pp).pipe(
    Effect.map((actual) => actual.length === expected.length && timingSafeEqual(actual, expected))
  )
}
