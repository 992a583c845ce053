import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Redacted, Result, Schema } from "effect"
import { ApiKey, formatApiKey, parseApiKey } from "../src/ApiKey.ts"

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const lower = "abcdefghijklmnopqrstuvwxyz0123456789"
const text = (chars: string, minLength: number, maxLength: number) =>
  Arbitrary.map(
    Arbitrary.array(Arbitrary.schema(Schema.Literals([...chars])), { minLength, maxLength }),
    (cs) => cs.join("")
  )
const Secret = text(alphabet, 43, 128)
const Slug = text(lower, 8, 32)
const Prefix = Arbitrary.schema(Schema.Literals(["sv_live", "sv_test"]))

const valid = "sv_live." + "k".repeat(43) + ".abcd1234"

describe("ApiKey", () => {
  it.prop("round-trips every well-formed key", [Prefix, Secret, Slug], ([prefix, secret, slug]) => {
    const text = `${prefix}.${secret}.${slug}`
    const parsed = parseApiKey(text)
    assert.isTrue(Result.isSuccess(parsed))
    if (Result.isSuccess(parsed)) {
      assert.strictEqual(parsed.success.slug, slug)
      assert.strictEqual(Redacted.value(parsed.success.secret), secret)
      assert.strictEqual(formatApiKey(parsed.success), text)
    }
  })

  it.prop("rejects any string without exactly three non-empty parts", [Schema.Array(Schema.String)], ([parts]) => {
    const text = parts.join(".")
    const pieces = text.split(".")
    if (pieces.length === 3 && pieces.every((p) => p.length > 0)) return
    assert.isTrue(Result.isFailure(parseApiKey(text)))
  })

  it.prop("rejects a key with one part emptied", [Prefix, Secret, Slug, Schema.Literals([0, 1, 2])], ([prefix, secret, slug, empty]) => {
    const parts = [prefix, secret, slug]
    parts[empty] = ""
    assert.isTrue(Result.isFailure(parseApiKey(parts.join("."))))
  })

  it("rejects a missing header, unknown prefixes, short secrets and bad slugs", () => {
    for (const bad of [undefined, "", "sv_prod." + "k".repeat(43) + ".abcd1234", "sv_live.short.abcd1234",
      "sv_live." + "k".repeat(43) + ".ABCD1234", "sv_live." + "k".repeat(43) + ".abc", valid + ".x", "x".repeat(300)]) {
      const result = parseApiKey(bad)
      assert.isTrue(Result.isFailure(result), String(bad))
      if (Result.isFailure(result)) assert.strictEqual(result.failure._tag, "Unauthorized")
    }
  })

  it("never shows the secret when the key is printed or the error is read", () => {
    const parsed = Result.getOrThrow(parseApiKey(valid))
    assert.notInclude(JSON.stringify(parsed), "k".repeat(43))
    assert.notInclude(String(parsed.secret), "k".repeat(43))
    const failed = parseApiKey(valid.replace("abcd1234", "BAD"))
    if (Result.isFailure(failed)) assert.notInclude(failed.failure.message, "k".repeat(43))
    assert.isTrue(Schema.is(ApiKey)(parsed))
  })
})
