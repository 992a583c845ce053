import { assert, describe, it } from "@effect/vitest"
import { HttpServerResponse } from "effect/http"
import * as ResponseCache from "../src/cache/ResponseCache.ts"

const answer = (text: string) => HttpServerResponse.text(text)
/** What an entry of `bodyBytes` under `key` is counted for. */
const cost = (key: string, bodyBytes: number) => bodyBytes + 2 * key.length + ResponseCache.entryOverhead

describe("ResponseCache", () => {
  it("answers what was kept under the version looked up, and nothing once the version changes", () => {
    const cache = ResponseCache.make({ maxEntries: 10, maxBytes: 10_000 })
    const page = answer("page 1")
    assert.isUndefined(cache.get(1, "page=1"))
    cache.set(1, "page=1", page, 6)
    assert.strictEqual(cache.get(1, "page=1"), page)
    assert.isUndefined(cache.get(1, "page=2"))

    assert.isUndefined(cache.get(2, "page=1"), "a new version drops every answer")
    assert.deepStrictEqual(cache.size(), { entries: 0, bytes: 0 })
    assert.isUndefined(cache.get(1, "page=1"), "and the old version does not come back")
  })

  it("does not keep an answer made from another version than the one last looked up", () => {
    const cache = ResponseCache.make({ maxEntries: 10, maxBytes: 10_000 })
    assert.isUndefined(cache.get(1, "q"))
    assert.isUndefined(cache.get(2, "q"), "the catalogue changed while the first answer was being made")
    cache.set(1, "q", answer("old"), 3)
    assert.isUndefined(cache.get(2, "q"))
    assert.deepStrictEqual(cache.size(), { entries: 0, bytes: 0 })
  })

  it("stays within its entries, dropping the least recently used", () => {
    const cache = ResponseCache.make({ maxEntries: 2, maxBytes: 10_000 })
    cache.get(1, "a")
    cache.set(1, "a", answer("a"), 1)
    cache.set(1, "b", answer("b"), 1)
    assert.isDefined(cache.get(1, "a"), "a is now the most recently used")
    cache.set(1, "c", answer("c"), 1)
    assert.isUndefined(cache.get(1, "b"))
    assert.isDefined(cache.get(1, "a"))
    assert.isDefined(cache.get(1, "c"))
    assert.strictEqual(cache.size().entries, 2)
  })

  it("stays within its bytes, counting bodies, keys and the overhead of each entry", () => {
    const maxBytes = 3 * cost("k0", 1000)
    const cache = ResponseCache.make({ maxEntries: 100, maxBytes })
    cache.get(1, "k0")
    for (let i = 0; i < 10; i++) {
      cache.set(1, `k${i}`, answer("x"), 1000)
      assert.isAtMost(cache.size().bytes, maxBytes)
    }
    assert.deepStrictEqual(cache.size(), { entries: 3, bytes: 3 * cost("k0", 1000) })
    assert.deepStrictEqual(["k7", "k8", "k9"].map((k) => cache.get(1, k) !== undefined), [true, true, true])

    cache.set(1, "huge", answer("x"), maxBytes)
    assert.isUndefined(cache.get(1, "huge"), "an answer larger than the whole budget is not kept")
    assert.strictEqual(cache.size().entries, 3, "and makes nothing else go")
  })

  it("replaces the answer of a key instead of counting it twice", () => {
    const cache = ResponseCache.make({ maxEntries: 10, maxBytes: 10_000 })
    cache.get(1, "q")
    cache.set(1, "q", answer("first"), 100)
    const second = answer("second")
    cache.set(1, "q", second, 200)
    assert.strictEqual(cache.get(1, "q"), second)
    assert.deepStrictEqual(cache.size(), { entries: 1, bytes: cost("q", 200) })
  })

  it("keeps nothing with a budget of 0 bytes", () => {
    const cache = ResponseCache.make({ maxEntries: 10, maxBytes: 0 })
    cache.get(1, "q")
    cache.set(1, "q", answer("x"), 1)
    assert.isUndefined(cache.get(1, "q"))
  })
})
