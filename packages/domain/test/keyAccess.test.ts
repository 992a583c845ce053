import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Result, Schema } from "effect"
import { ApiKeyPrefix } from "../src/ApiKey.ts"
import { authorise, type KeyOperation, keyOperations, launchOperation } from "../src/KeyAccess.ts"

const Operation = Arbitrary.schema(Schema.Literals(keyOperations))
const Prefix = Arbitrary.schema(ApiKeyPrefix)

/** What CONTRACT §2 lets a test key do: list games, launch demo mode, read (its settings, demo data). */
const testKeyMay: ReadonlySet<KeyOperation> = new Set(["listGames", "launchDemo", "readSettings"])

describe("KeyAccess: an sv_test key never touches real money (CONTRACT §2)", () => {
  it("every operation, both environments: live may do everything, test only what moves no money", () => {
    for (const operation of keyOperations) {
      assert.isTrue(Result.isSuccess(authorise("sv_live", operation)), `sv_live ${operation}`)
      const test = authorise("sv_test", operation)
      assert.strictEqual(Result.isSuccess(test), testKeyMay.has(operation), `sv_test ${operation}`)
    }
  })

  it.prop("a refusal is Forbidden, says why and names the key to use", [Prefix, Operation], ([prefix, operation]) => {
    const answer = authorise(prefix, operation)
    if (Result.isFailure(answer)) {
      assert.strictEqual(prefix, "sv_test")
      assert.strictEqual(answer.failure._tag, "Forbidden")
      assert.match(answer.failure.detail, /^an sv_test key .*use an sv_live key/)
    }
  })

  it("a launch is real or demo by its mode; a real launch with a test key is refused", () => {
    assert.strictEqual(launchOperation("real"), "launchReal")
    assert.strictEqual(launchOperation("demo"), "launchDemo")
    const real = authorise("sv_test", launchOperation("real"))
    assert.isTrue(Result.isFailure(real) && /demo mode only/.test(real.failure.detail))
  })
})
