import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import { LaunchClaims } from "@gateway/domain/LaunchToken"
import { LaunchKeyStore, type LaunchSigningKey } from "@gateway/domain/ports/LaunchKeyStore"
import { LaunchTokenSigner } from "@gateway/domain/ports/LaunchTokenSigner"
import { LaunchTokenVerifier } from "@gateway/domain/ports/LaunchTokenVerifier"
import { fixedLaunchKeys, makeClaims } from "@gateway/domain/testing"
import { SignJWT } from "jose"
import { generate, open } from "../src/launch/LaunchKeys.ts"
import * as LaunchTokenSignerJwt from "../src/launch/LaunchTokenSignerJwt.ts"
import * as LaunchTokenVerifierJwt from "../src/launch/LaunchTokenVerifierJwt.ts"

const now = () => Math.floor(Date.now() / 1000)
const claims = (overrides: Partial<LaunchClaims> = {}) => makeClaims({ jti: "2b1e4c1a-5d6e-4f70-8a9b-0c1d2e3f4a5b", ...overrides })

/** Signs `claims` as the real signer does over a store whose current key is `key`. */
const signWith = (key: LaunchSigningKey, claims: LaunchClaims) =>
  LaunchTokenSigner.use((s) => s.sign(claims)).pipe(
    Effect.provide(LaunchTokenSignerJwt.layer.pipe(Layer.provide(fixedLaunchKeys(key))))
  )

/**
 * A key store whose published keys are `keys.value`, read on every call, and whose resumable keys are those and
 * `retired` (keys past publication whose links a page may still resume).
 */
const storeOf = (keys: { value: ReadonlyArray<LaunchSigningKey> }, retired: ReadonlyArray<LaunchSigningKey> = []) =>
  Layer.succeed(LaunchKeyStore, LaunchKeyStore.of({
    current: Effect.sync(() => keys.value[0]).pipe(Effect.flatMap((k) => k === undefined ? Effect.die("no key") : Effect.succeed(k))),
    publicKeys: Effect.sync(() => keys.value.map((k) => k.publicJwk)),
    resumableKeys: Effect.sync(() => [...keys.value, ...retired].map((k) => k.publicJwk)),
    rotate: Effect.die("unused")
  }))

const verify = (
  keys: { value: ReadonlyArray<LaunchSigningKey> },
  token: string,
  acceptExpired = false,
  retired: ReadonlyArray<LaunchSigningKey> = []
) =>
  LaunchTokenVerifier.use((v) => v.verify(token, { acceptExpired })).pipe(
    Effect.provide(LaunchTokenVerifierJwt.layer.pipe(Layer.provide(storeOf(keys, retired)))),
    Effect.exit,
    Effect.map((exit) =>
      Exit.isSuccess(exit)
        ? `ok ${exit.value.sub}`
        : Exit.findErrorOption(exit).pipe((o) => o._tag === "Some" ? o.value.detail : "defect")
    )
  )

const key = await Effect.runPromise(generate)
const other = await Effect.runPromise(generate)

describe("LaunchTokenVerifierJwt", () => {
  it.effect("signs the claims as their schema encodes them, every optional claim included, in its order", () =>
    Effect.gen(function*() {
      const full = claims({ lang: "fr", lurl: "https://casino.example/lobby", rcm: 30, shop: "shop-7", shn: "Shop Seven", smin: "0.50", smax: "20.00" })
      const some = claims({ shop: "shop-7", shn: "Shop Seven" })
      for (const c of [full, some, claims()]) {
        const payload = (yield* signWith(key, c)).split(".")[1] ?? ""
        assert.strictEqual(Buffer.from(payload, "base64url").toString(), JSON.stringify(Schema.encodeSync(LaunchClaims)(c)))
      }
    }))

  it.effect("accepts a token of a published key and decodes its claims", () =>
    Effect.gen(function*() {
      const token = yield* signWith(key, claims())
      assert.strictEqual(yield* verify({ value: [key] }, token), "ok p-1")
    }))

  it.effect("a key no longer published still verifies its expired links for a resume (acceptExpired), never a live one", () =>
    Effect.gen(function*() {
      const published = { value: [other] }
      const expired = yield* signWith(key, claims({ iat: now() - 7200, exp: now() - 3600 }))
      const live = yield* signWith(key, claims())
      assert.strictEqual(yield* verify(published, expired, true, [key]), "ok p-1")
      assert.strictEqual(yield* verify(published, live, false, [key]), "invalid launch link")
      assert.strictEqual(yield* verify(published, expired, true), "invalid launch link", "once it is not resumable either")
    }))

  it.effect("an expired token is 'launch link expired'", () =>
    Effect.gen(function*() {
      const token = yield* signWith(key, claims({ iat: now() - 120, exp: now() - 60 }))
      assert.strictEqual(yield* verify({ value: [key] }, token), "launch link expired")
    }))

  it.effect("with acceptExpired (a page resuming), an expired token verifies, but never a forged or foreign one", () =>
    Effect.gen(function*() {
      const expired = yield* signWith(key, claims({ iat: now() - 7200, exp: now() - 3600 }))
      assert.strictEqual(yield* verify({ value: [key] }, expired, true), "ok p-1")
      assert.strictEqual(yield* verify({ value: [key] }, expired), "launch link expired")
      const byOther = yield* signWith(other, claims({ iat: now() - 7200, exp: now() - 3600 }))
      assert.strictEqual(yield* verify({ value: [key] }, byOther, true), "invalid launch link")
      const [header, , signature] = expired.split(".")
      const tampered = Buffer.from(JSON.stringify({ ...claims({ iat: now() - 7200, exp: now() - 3600 }), sub: "p-2" })).toString("base64url")
      assert.strictEqual(yield* verify({ value: [key] }, `${header}.${tampered}.${signature}`, true), "invalid launch link")
      const privateKey = yield* open(key)
      const foreign = yield* Effect.promise(() =>
        new SignJWT({ ...claims({ iat: now() - 7200, exp: now() - 3600 }), iss: "https://elsewhere.example" })
          .setProtectedHeader({ alg: "EdDSA", kid: key.kid }).sign(privateKey)
      )
      assert.strictEqual(yield* verify({ value: [key] }, foreign, true), "invalid launch link")
      const otherAudience = yield* Effect.promise(() =>
        new SignJWT({ ...claims({ iat: now() - 7200, exp: now() - 3600 }), aud: "admin" })
          .setProtectedHeader({ alg: "EdDSA", kid: key.kid }).sign(privateKey)
      )
      assert.strictEqual(yield* verify({ value: [key] }, otherAudience, true), "invalid launch link")
    }))

  it.effect("forged tokens are 'invalid launch link'", () =>
    Effect.gen(function*() {
      const byOther = yield* signWith(other, claims())
      assert.strictEqual(yield* verify({ value: [key] }, byOther), "invalid launch link")
      const [header, , signature] = (yield* signWith(key, claims())).split(".")
      const tampered = Buffer.from(JSON.stringify({ ...claims(), sub: "p-2" })).toString("base64url")
      assert.strictEqual(yield* verify({ value: [key] }, `${header}.${tampered}.${signature}`), "invalid launch link")
      const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${tampered}.`
      assert.strictEqual(yield* verify({ value: [key] }, none), "invalid launch link")
      assert.strictEqual(yield* verify({ value: [key] }, "not-a-jwt"), "invalid launch link")
    }))

  it.effect("a wrong audience, a wrong issuer or claims that do not decode are 'invalid launch link'", () =>
    Effect.gen(function*() {
      const privateKey = yield* open(key)
      const sign = (payload: Record<string, unknown>) =>
        Effect.promise(() =>
          new SignJWT(payload).setProtectedHeader({ alg: "EdDSA", kid: key.kid }).sign(privateKey)
        )
      const base = { ...claims(), aud: "launch" }
      assert.strictEqual(yield* verify({ value: [key] }, yield* sign(base)), "ok p-1")
      assert.strictEqual(yield* verify({ value: [key] }, yield* sign({ ...base, aud: "admin" })), "invalid launch link")
      assert.strictEqual(yield* verify({ value: [key] }, yield* sign({ ...base, iss: "someone-else" })), "invalid launch link")
      assert.strictEqual(yield* verify({ value: [key] }, yield* sign({ ...base, mode: "free" })), "invalid launch link")
      const { exp: _exp, ...withoutExp } = base
      assert.strictEqual(yield* verify({ value: [key] }, yield* sign(withoutExp)), "invalid launch link")
    }))

  it.effect("sees a key rotated in after its keys were cached (unknown kid → refetch)", () =>
    Effect.gen(function*() {
      const keys = { value: [key] }
      const verifier = yield* LaunchTokenVerifierJwt.make({ cacheTtl: "1 hour" }).pipe(Effect.provide(storeOf(keys)))
      const result = (token: string) => Effect.map(Effect.exit(verifier.verify(token)), Exit.isSuccess)
      assert.isTrue(yield* result(yield* signWith(key, claims())))
      keys.value = [other, key]
      assert.isTrue(yield* result(yield* signWith(other, claims())))
    }))

  it.effect("forged tokens with unknown kids refetch the keys at most once per interval", () =>
    Effect.gen(function*() {
      let reads = 0
      const counting = Layer.succeed(LaunchKeyStore, LaunchKeyStore.of({
        current: Effect.succeed(key),
        publicKeys: Effect.sync(() => {
          reads++
          return [key.publicJwk]
        }),
        resumableKeys: Effect.succeed([key.publicJwk]),
        rotate: Effect.die("unused")
      }))
      const verifier = yield* LaunchTokenVerifierJwt.make({ cacheTtl: "1 hour" }).pipe(Effect.provide(counting))
      const forged = yield* signWith(other, claims())
      for (let i = 0; i < 20; i++) assert.isTrue(Exit.isFailure(yield* Effect.exit(verifier.verify(forged))))
      assert.strictEqual(reads, 2, "the first read and one refetch")
      yield* TestClock.adjust(LaunchTokenVerifierJwt.unknownKidRefetchInterval)
      for (let i = 0; i < 20; i++) assert.isTrue(Exit.isFailure(yield* Effect.exit(verifier.verify(forged))))
      assert.strictEqual(reads, 3)
    }))
})
