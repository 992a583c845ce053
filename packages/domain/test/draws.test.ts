import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { createHash, createHmac, randomBytes } from "node:crypto"
import * as Draws from "../src/games/Draws.ts"
import type { FairRandom } from "../src/ports/FairRandom.ts"

/** Blocks of fixed bytes, given as 32-bit big-endian words (8 to a block), counting the blocks pulled. */
const wordBlocks = (...words: ReadonlyArray<number>) => {
  const pulled: Array<number> = []
  const block = (index: number): Uint8Array => {
    pulled.push(index)
    const bytes = new Uint8Array(32)
    const view = new DataView(bytes.buffer)
    for (let i = 0; i < 8; i++) view.setUint32(i * 4, words[index * 8 + i] ?? 0)
    return bytes
  }
  return { block, pulled }
}

const fair: FairRandom["Service"] = {
  hmacSha256: (key, message) => new Uint8Array(createHmac("sha256", key).update(message).digest()),
  sha256Hex: (text) => createHash("sha256").update(text).digest("hex"),
  newSeed: () => randomBytes(32).toString("hex")
}

describe("Draws", () => {
  it("reads 4 bytes at a time, big-endian, and answers x mod n", () => {
    const { block } = wordBlocks(0x01020304, 7, 0xffffffff)
    const draws = Draws.make(block)
    assert.strictEqual(draws.int(1000), 0x01020304 % 1000)
    assert.strictEqual(draws.int(5), 2)
    assert.strictEqual(draws.int(2 ** 32), 0xffffffff)
  })

  it("rejects x ≥ ⌊2^32 / n⌋ × n and reads the next word instead (no modulo bias)", () => {
    const limit36 = Math.floor(2 ** 32 / 36) * 36
    const { block } = wordBlocks(limit36, 0xffffffff, limit36 - 1, 0xffffffff, 5)
    const draws = Draws.make(block)
    assert.strictEqual(draws.int(36), (limit36 - 1) % 36)
    assert.strictEqual(draws.int(3), 5 % 3)
    const once = wordBlocks(2 ** 31, 9)
    assert.strictEqual(Draws.make(once.block).int(3), (2 ** 31) % 3, "2^31 is below 4294967295, the limit of n = 3")
  })

  it("pulls block i + 1 only when block i's 8 words are used up", () => {
    const { block, pulled } = wordBlocks(...Array.from({ length: 24 }, (_, i) => i))
    const draws = Draws.make(block)
    assert.deepStrictEqual(pulled, [])
    for (let i = 0; i < 8; i++) assert.strictEqual(draws.int(100), i)
    assert.deepStrictEqual(pulled, [0])
    assert.strictEqual(draws.int(100), 8)
    assert.deepStrictEqual(pulled, [0, 1])
  })

  it("samples by a partial Fisher–Yates shuffle: swap j with j + int(n − j)", () => {
    // [0 1 2 3 4]: j=0 swaps 0↔2 (7 mod 5) → [2 1 0 3 4]; j=1 swaps 1↔2 (5 mod 4) → [2 0 1 3 4];
    // j=2 swaps 2↔3 (4 mod 3) → [2 0 3 1 4]
    const { block } = wordBlocks(7, 5, 4)
    assert.deepStrictEqual(Draws.make(block).sample(3, 5), [2, 0, 3])
    const rejected = wordBlocks(7, 5, 0xffffffff, 4)
    assert.deepStrictEqual(Draws.make(rejected.block).sample(3, 5), [2, 0, 3], "int(3) rejects 0xffffffff within the sample")
    const shared = wordBlocks(3, 7, 5, 4)
    const draws = Draws.make(shared.block)
    assert.strictEqual(draws.int(10), 3)
    assert.deepStrictEqual(draws.sample(3, 5), [2, 0, 3], "int and sample read one stream")
  })

  it("samples k distinct values of [0, n), and all of them when k = n", () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 1, max: 80 }), fc.nat(80), (seed, n, k0) => {
      const k = k0 % (n + 1)
      const block = (i: number) => createHmac("sha256", Buffer.from(seed)).update(String(i)).digest()
      const drawn = Draws.make(block).sample(k, n)
      assert.strictEqual(drawn.length, k)
      assert.strictEqual(new Set(drawn).size, k)
      for (const x of drawn) assert.isTrue(Number.isInteger(x) && x >= 0 && x < n)
      const all = Draws.make(block).sample(n, n)
      assert.deepStrictEqual([...all].sort((a, b) => a - b), Array.from({ length: n }, (_, i) => i))
      assert.deepStrictEqual(all.slice(0, k), drawn, "a longer sample starts with the shorter one")
    }))
  })

  it("refuses impossible draws", () => {
    const draws = Draws.make(wordBlocks().block)
    for (const n of [0, -1, 1.5, 2 ** 32 + 1, Number.NaN]) assert.throws(() => draws.int(n), RangeError)
    assert.throws(() => draws.sample(6, 5), RangeError)
    assert.throws(() => draws.sample(-1, 5), RangeError)
    assert.throws(() => draws.sample(1, 65_537), RangeError)
  })

  it("block i is HMAC-SHA256(serverSeed, `<clientSeed>:<nonce>` or `<clientSeed>:<nonce>:<i>`), each computed once", () => {
    assert.strictEqual(Draws.message("lucky-7", 0, 0), "lucky-7:0")
    assert.strictEqual(Draws.message("lucky-7", 12, 3), "lucky-7:12:3")
    const calls: Array<string> = []
    const counting: FairRandom["Service"] = { ...fair, hmacSha256: (key, message) => (calls.push(message), fair.hmacSha256(key, message)) }
    const block = Draws.streamFor(counting, "server-seed", "lucky-7", 12)
    const expected = createHmac("sha256", "server-seed").update("lucky-7:12:1").digest()
    assert.deepStrictEqual([...block(1)], [...expected])
    assert.deepStrictEqual([...block(0)], [...createHmac("sha256", "server-seed").update("lucky-7:12").digest()])
    block(1)
    assert.deepStrictEqual(calls, ["lucky-7:12:1", "lucky-7:12"])
  })

  it("a round's first draw is the first word of HMAC-SHA256(serverSeed, `<clientSeed>:<nonce>`) (pinned)", () => {
    const serverSeed = "3f2a9c1e5b7d40f68e2c4a6b8d0f1e3a5c7b9d1f2e4a6c8b0d2f4e6a8c1b3d5f"
    const block0 = Draws.streamFor(fair, serverSeed, "lucky-7", 0)(0)
    assert.strictEqual(Buffer.from(block0).toString("hex"), "dab7c79b7c792d1ec565942a5ce256c4a92816caaaf7c8a44ed5d0f57ab439a8")
    // 0xdab7c79b = 3669477275 < 4294967292 = ⌊2^32 / 36⌋ × 36, so it is taken: 3669477275 mod 36 = 11
    assert.strictEqual(Draws.forRound(fair, serverSeed, "lucky-7", 0).int(36), 11)
  })
})
