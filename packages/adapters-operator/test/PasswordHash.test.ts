import { Effect } from "effect"
import { scryptSync } from "node:crypto"
import { describe, expect, it } from "vitest"
import * as PasswordHash from "../src/crypto/PasswordHash.ts"

const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)

describe("PasswordHash (scrypt)", () => {
  it("hashes at N = 2^15, r = 8, p = 1 unless told otherwise; the stored text verifies the secret and nothing else", async () => {
    const stored = await run(PasswordHash.hash("correct horse battery staple"))
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    expect(await run(PasswordHash.verify("correct horse battery staple", stored))).toBe(true)
    expect(await run(PasswordHash.verify("correct horse battery stapler", stored))).toBe(false)
    expect(await run(PasswordHash.hash("correct horse battery staple"))).not.toBe(stored)
  })

  it("stores scrypt's own key at the cost it is given, and verifies it whatever the cost is now", async () => {
    const stored = await run(PasswordHash.hash("123456", 10))
    const [, n, r, p, salt, key] = stored.split("$")
    expect([n, r, p]).toEqual(["1024", "8", "1"])
    const expected = scryptSync("123456", Buffer.from(salt ?? "", "base64url"), 32, { N: 1024, r: 8, p: 1 })
    expect(key).toBe(expected.toString("base64url"))
    expect(await run(PasswordHash.verify("123456", stored))).toBe(true)
    expect(await run(PasswordHash.verify("123457", stored))).toBe(false)
  })

  it("verifies nothing against a stored text of another shape or beyond its bounds, without deriving", async () => {
    const key = "A".repeat(43)
    const salt = "B".repeat(22)
    for (
      const stored of [
        "plain:123456",
        `bcrypt$10$8$1$${salt}$${key}`,
        `scrypt$2097152$8$1$${salt}$${key}`, // 2^21: 2 GiB of memory, were it derived
        `scrypt$512$8$1$${salt}$${key}`,
        `scrypt$1000$8$1$${salt}$${key}`,
        `scrypt$32768$64$1$${salt}$${key}`,
        `scrypt$32768$8$9$${salt}$${key}`,
        `scrypt$32768$8$1$${salt}`
      ]
    ) {
      expect(await run(PasswordHash.verify("123456", stored)), stored).toBe(false)
    }
  })
})
