import { describe, expect, it } from "vitest"
import * as Totp from "../src/crypto/Totp.ts"

/** RFC 6238, Appendix B: the seeds and the 8-digit codes of each algorithm at each time. */
const seeds = {
  sha1: Buffer.from("12345678901234567890"),
  sha256: Buffer.from("12345678901234567890123456789012"),
  sha512: Buffer.from("1234567890123456789012345678901234567890123456789012345678901234")
} as const
const vectors: ReadonlyArray<readonly [number, string, string, string]> = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"]
]

describe("TOTP (RFC 6238)", () => {
  it("gives the codes of Appendix B for SHA-1, SHA-256 and SHA-512", () => {
    for (const [time, sha1, sha256, sha512] of vectors) {
      expect([
        Totp.totp(seeds.sha1, time, { digits: 8 }),
        Totp.totp(seeds.sha256, time, { digits: 8, algorithm: "sha256" }),
        Totp.totp(seeds.sha512, time, { digits: 8, algorithm: "sha512" })
      ]).toEqual([sha1, sha256, sha512])
    }
  })

  it("round-trips base32 secrets and accepts the code of the step before, now and after, nothing further", () => {
    const secret = Totp.toBase32(seeds.sha1)
    expect(secret).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    expect(Totp.fromBase32(secret.toLowerCase())).toEqual(seeds.sha1)
    expect(Totp.fromBase32("not base32!")).toBeUndefined()
    const now = 1_111_111_111
    const code = (at: number) => Totp.totp(seeds.sha1, at)
    expect(code(59)).toBe("287082")
    for (const at of [now - 30, now, now + 30]) expect(Totp.verify(secret, code(at), now)).toBe(true)
    for (const at of [now - 90, now + 90]) expect(Totp.verify(secret, code(at), now)).toBe(false)
    expect(Totp.verify(secret, "12345", now)).toBe(false)
    expect(Totp.verify(Totp.newSecret(), code(now), now)).toBe(false)
  })
})
