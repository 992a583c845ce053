import { assert, describe, it } from "@effect/vitest"
import { fairRandom } from "../src/crypto/FairRandomNode.ts"

describe("FairRandomNode", () => {
  it("computes the HMAC and hash that `openssl dgst -sha256 [-hmac]` prints", () => {
    // printf '%s' 'client:0' | openssl dgst -sha256 -hmac 'server'
    assert.strictEqual(
      Buffer.from(fairRandom.hmacSha256("server", "client:0")).toString("hex"),
      "7e1afbb70d2faa4ec781bb91d88f04d762682e40367d61703826e4218ea60e77"
    )
    // printf '%s' 'abc' | openssl dgst -sha256
    assert.strictEqual(fairRandom.sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  })

  it("makes fresh 64-hex-digit server seeds", () => {
    const seeds = new Set(Array.from({ length: 100 }, () => fairRandom.newSeed()))
    assert.strictEqual(seeds.size, 100)
    for (const seed of seeds) assert.match(seed, /^[0-9a-f]{64}$/)
  })
})
