import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Redacted } from "effect"
import { adminToken } from "@gateway/adapters-http/testing"
import * as AdminAuth from "../src/middleware/AdminAuth.ts"
import { secret } from "./support.ts"

const tokens = AdminAuth.makeTokens({ secret: Redacted.make(secret) })

describe("testing/Client adminToken", () => {
  it.effect("mints a token the admin verifier accepts, with both scopes by default or the given ones", () =>
    Effect.gen(function*() {
      const both = yield* tokens.verify(yield* Effect.promise(() => adminToken(secret)))
      assert.deepStrictEqual([...both.scopes].toSorted(), ["read:users", "write:users"])
      const reader = yield* tokens.verify(yield* Effect.promise(() => adminToken(secret, "read:users")))
      assert.deepStrictEqual([...reader.scopes], ["read:users"])
    }))

  it.effect("is refused when signed with another secret or already expired", () =>
    Effect.gen(function*() {
      const forged = yield* Effect.promise(() => adminToken("another-secret-that-is-at-least-32-characters"))
      assert.isTrue(Exit.isFailure(yield* Effect.exit(tokens.verify(forged))))
      const expired = yield* Effect.promise(() => adminToken(secret, undefined, "-1m"))
      const exit = yield* Effect.exit(tokens.verify(expired))
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) assert.match(String(exit.cause), /expired/)
    }))
})

describe("AdminAuth.makeTokens with previous secrets (AUTH_JWT_SECRET=new,old)", () => {
  const older = "the-old-secret-being-rotated-out-of-use"
  const rotating = AdminAuth.makeTokens({ secret: Redacted.make(secret), previousSecrets: [Redacted.make(older)] })
  const detail = (exit: Exit.Exit<unknown, { readonly detail: string }>) =>
    Exit.isFailure(exit) ? exit.cause.reasons.map((r) => r._tag === "Fail" ? r.error.detail : "defect").join() : "accepted"

  it.effect("accepts tokens of the current and of a previous secret, and still tells an expired one of either", () =>
    Effect.gen(function*() {
      for (const key of [secret, older]) {
        const claims = yield* rotating.verify(yield* Effect.promise(() => adminToken(key, "read:users")))
        assert.deepStrictEqual([...claims.scopes], ["read:users"])
        const expired = yield* Effect.promise(() => adminToken(key, undefined, "-1m"))
        assert.strictEqual(detail(yield* Effect.exit(rotating.verify(expired))), "bearer token expired")
      }
      const stranger = yield* Effect.promise(() => adminToken("a-secret-that-was-never-listed-anywhere"))
      assert.strictEqual(detail(yield* Effect.exit(rotating.verify(stranger))), "invalid bearer token")
      const ofOld = yield* Effect.promise(() => adminToken(older))
      assert.strictEqual(detail(yield* Effect.exit(tokens.verify(ofOld))), "invalid bearer token", "once removed")
    }))
})
