import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Redacted, Result, Schema } from "effect"
import fc from "fast-check"
import { ApiKey, ApiKeyFromString, formatApiKey, parseApiKey } from "../src/ApiKey.ts"

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

  it("parses exactly as the ApiKeyFromString schema decodes: keys with parts on and just outside their bounds, one character changed, any string", () => {
    const decode = Schema.decodeUnknownResult(ApiKeyFromString)
    // Each part well-formed or just outside: prefixes one step off, secrets and slugs a few characters
    // shorter or longer than their bounds.
    const near = (chars: string, min: number, max: number) =>
      fc.oneof(fc.constantFrom(min - 1, min, max, max + 1), fc.integer({ min: min - 1, max: max + 1 })).chain((length) =>
        fc.array(fc.constantFrom(...chars), { minLength: length, maxLength: length }).map((cs) => cs.join(""))
      )
    const nearlyWellFormed = fc.tuple(
      fc.constantFrom("sv_live", "sv_test", "sv_dev", "sv_live_", "SV_LIVE", "sv_tes", "sv-live"),
      near(alphabet, 43, 128),
      near(lower, 8, 32)
    ).map((parts) => parts.join("."))
    const changed = fc.tuple(nearlyWellFormed, fc.nat(), fc.constantFrom("replace", "insert", "remove"), fc.constantFrom(..."._-aZ09+/= é\n\u0000"))
      .map(([text, at, how, c]) => {
        const i = at % (text.length + 1)
        return text.slice(0, i) + (how === "remove" ? "" : c) + text.slice(how === "insert" ? i : i + 1)
      })
    fc.assert(
      fc.property(fc.oneof(nearlyWellFormed, changed, fc.string(), fc.string({ unit: "grapheme", maxLength: 300 })), (text) => {
        const parsed = parseApiKey(text)
        const decoded = decode(text)
        assert.strictEqual(Result.isSuccess(parsed), Result.isSuccess(decoded), JSON.stringify(text))
        if (Result.isSuccess(parsed) && Result.isSuccess(decoded)) {
          assert.deepStrictEqual(
            [parsed.success.prefix, Redacted.value(parsed.success.secret), parsed.success.slug],
            [decoded.success.prefix, Redacted.value(decoded.success.secret), decoded.success.slug]
          )
          assert.strictEqual(String(parsed.success.secret), String(decoded.success.secret))
        }
      }),
      { numRuns: 3000 }
    )
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
