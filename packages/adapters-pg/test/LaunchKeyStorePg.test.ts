import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { LaunchKeys, LaunchTokenSignerJwt } from "@gateway/adapters-operator"
import type { LaunchJwk } from "@gateway/domain/LaunchToken"
import { LaunchKeyStore } from "@gateway/domain/ports/LaunchKeyStore"
import { LaunchTokenSigner } from "@gateway/domain/ports/LaunchTokenSigner"
import { makeClaims } from "@gateway/domain/testing"
import { Config, Effect, Layer, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql/SqlClient"
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose"
import { createPrivateKey, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto"
import * as DataCipher from "../src/db/DataCipher.ts"
import * as LaunchKeyStorePg from "../src/LaunchKeyStorePg.ts"
import * as RoundLinkKeysPg from "../src/RoundLinkKeysPg.ts"
import * as PgTest from "../testing/PgTest.ts"

const retention = "30 seconds"
const database = Layer.mergeAll(DataCipher.layer(Redacted.make(randomBytes(32))), LaunchKeys.generatorLayer).pipe(
  Layer.provideMerge(PgTest.layer)
)

/** A second pool on this file's database, as another server instance would have. */
const otherInstance = Effect.gen(function*() {
  const sql = yield* SqlClient
  const [row] = yield* sql<{ readonly name: string }>`SELECT current_database() AS name`
  const url = yield* Config.Redacted("DATABASE_URL")
  const client = yield* PgClient.make({ url, database: row?.name ?? "", maxConnections: 2 }).pipe(
    Effect.provide(Reactivity.layer)
  )
  return yield* LaunchKeyStorePg.make({ retention }).pipe(Effect.provideService(SqlClient, client))
})

const claims = () => makeClaims({ jti: randomUUID() })

const verifyWith = (keys: ReadonlyArray<LaunchJwk>, token: string) =>
  Effect.promise(() =>
    jwtVerify(token, createLocalJWKSet({ keys: [...keys] }), { algorithms: ["EdDSA"], audience: "launch" }).then(
      (result) => result.protectedHeader.kid,
      () => "rejected"
    )
  )

const kidOf = (token: string) => decodeProtectedHeader(token).kid

// Live clock: the signers' key cache and the database's now() must agree.
describe("LaunchKeyStorePg", () => {
  layer(database, { excludeTestServices: true })((it) => {
    it.effect("instances racing for the first key agree on one, and one verifies what the other signs", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const a = yield* LaunchKeyStorePg.make({ retention })
        const b = yield* otherInstance
        for (let round = 0; round < 5; round++) {
          yield* sql`DELETE FROM launch_signing_keys`
          const [first, second] = yield* Effect.all([a.current, b.current], { concurrency: "unbounded" })
          assert.strictEqual(first.kid, second.kid)
          const rows = yield* sql`SELECT kid FROM launch_signing_keys`
          assert.deepStrictEqual(rows.map((r) => r["kid"]), [first.kid])
        }
        const signer = yield* LaunchTokenSignerJwt.make().pipe(Effect.provideService(LaunchKeyStore, a))
        const token = yield* signer.sign(claims())
        const current = yield* b.current
        assert.strictEqual(kidOf(token), current.kid)
        assert.strictEqual(yield* verifyWith(yield* b.publicKeys, token), current.kid)
        const stranger = yield* LaunchKeys.generate
        assert.strictEqual(yield* verifyWith([stranger.publicJwk], token), "rejected")
      }).pipe(Effect.scoped))

    it.effect("rotation: signers move to the new key within their cache time, the old key stays published for the retention", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const a = yield* LaunchKeyStorePg.make({ retention })
        const b = yield* otherInstance
        const signer = yield* LaunchTokenSignerJwt.make({ cacheTtl: "1 second" }).pipe(
          Effect.provideService(LaunchKeyStore, a)
        )
        const old = yield* signer.sign(claims())
        const rotated = yield* b.rotate
        assert.notStrictEqual(rotated.kid, kidOf(old))
        assert.strictEqual((yield* a.current).kid, rotated.kid)
        assert.strictEqual(kidOf(yield* signer.sign(claims())), kidOf(old))
        yield* Effect.sleep("1100 millis")
        const fresh = yield* signer.sign(claims())
        assert.strictEqual(kidOf(fresh), rotated.kid)

        const published = yield* b.publicKeys
        assert.deepStrictEqual(published.map((k) => k.kid).toSorted(), [kidOf(old), rotated.kid].toSorted())
        assert.strictEqual(yield* verifyWith(published, old), kidOf(old))
        assert.strictEqual(yield* verifyWith(published, fresh), rotated.kid)

        yield* sql`UPDATE launch_signing_keys SET retired_at = now() - interval '29 seconds' WHERE retired_at IS NOT NULL`
        assert.include((yield* a.publicKeys).map((k) => k.kid), kidOf(old))
        yield* sql`UPDATE launch_signing_keys SET retired_at = now() - interval '31 seconds' WHERE retired_at IS NOT NULL`
        const later = yield* a.publicKeys
        assert.deepStrictEqual(later.map((k) => k.kid), [rotated.kid])
        assert.strictEqual(yield* verifyWith(later, old), "rejected")
        assert.strictEqual(yield* verifyWith(later, fresh), rotated.kid)
        for (const key of later) {
          assert.deepStrictEqual(Object.keys(key).toSorted(), ["alg", "crv", "kid", "kty", "use", "x"])
          assert.include(key, { kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" })
        }
      }).pipe(Effect.scoped))

    it.effect("a retired key past publication still verifies, unpublished, for the resume window; then not at all", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        yield* sql`DELETE FROM launch_signing_keys`
        const store = yield* LaunchKeyStorePg.make({ retention, resumableRetention: "2 hours" })
        const old = yield* store.current
        const rotated = yield* store.rotate
        yield* sql`UPDATE launch_signing_keys SET retired_at = now() - interval '1 hour' WHERE retired_at IS NOT NULL`
        assert.deepStrictEqual((yield* store.publicKeys).map((k) => k.kid), [rotated.kid], "published")
        assert.deepStrictEqual((yield* store.resumableKeys).map((k) => k.kid), [rotated.kid, old.kid], "resumable")
        yield* sql`UPDATE launch_signing_keys SET retired_at = now() - interval '121 minutes' WHERE retired_at IS NOT NULL`
        assert.deepStrictEqual((yield* store.resumableKeys).map((k) => k.kid), [rotated.kid], "resumable later")
        // Without a resume window of its own, a store's resumable keys are its published ones
        const plain = yield* LaunchKeyStorePg.make({ retention })
        yield* sql`UPDATE launch_signing_keys SET retired_at = now() - interval '29 seconds' WHERE retired_at IS NOT NULL`
        assert.deepStrictEqual(yield* plain.resumableKeys, yield* plain.publicKeys)
        yield* sql`DELETE FROM launch_signing_keys`
      }))

    it.effect("stores private keys encrypted, never in plaintext", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const cipher = yield* DataCipher.DataCipher
        const store = yield* LaunchKeyStorePg.make({ retention })
        const key = yield* store.rotate
        const pem = Redacted.value(key.privateKey)
        const body = pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s/g, "")
        const d = createPrivateKey(pem).export({ format: "jwk" }).d ?? ""
        assert.isAbove(d.length, 0)
        const [row] = yield* sql<{ readonly whole: string; readonly enc: string }>`
          SELECT k::text AS whole, private_key_enc AS enc FROM launch_signing_keys k WHERE kid = ${key.kid}`
        const whole = row?.whole ?? ""
        assert.isAbove(whole.length, 0)
        for (const secret of [body, d, Buffer.from(d, "base64url").toString("hex"), "PRIVATE KEY"]) {
          assert.notInclude(whole, secret)
        }
        assert.strictEqual(Redacted.value(yield* cipher.decrypt(row?.enc ?? "")), pem)
      }))

    it.effect("with LAUNCH_SIGNING_KEY, that key alone signs and is published, and none is stored", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        yield* sql`DELETE FROM launch_signing_keys`
        const pem = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString()
        const configured = yield* LaunchKeys.fromPem(Redacted.make(pem))
        const store = yield* LaunchKeyStore.pipe(Effect.provide(LaunchKeys.layerFixed(Redacted.make(pem))))
        assert.strictEqual((yield* store.current).kid, configured.kid)
        assert.deepStrictEqual(yield* store.publicKeys, [configured.publicJwk])
        assert.strictEqual((yield* store.rotate).kid, configured.kid)
        assert.strictEqual((yield* sql`SELECT kid FROM launch_signing_keys`).length, 0)
        const signer = yield* LaunchTokenSigner.pipe(
          Effect.provide(LaunchTokenSignerJwt.layer),
          Effect.provideService(LaunchKeyStore, store)
        )
        const token = yield* signer.sign(claims())
        assert.strictEqual(yield* verifyWith(yield* store.publicKeys, token), configured.kid)

        const bad = yield* Effect.flip(
          LaunchKeyStore.pipe(Effect.provide(LaunchKeys.layerFixed(Redacted.make("sekrit-not-a-pem"))))
        )
        assert.match(bad.message, /^LAUNCH_SIGNING_KEY: /)
        assert.notInclude(bad.message, "sekrit")
      }))

    // The round-link key is kept beside the launch keys, created alike (migration 0017, CONTRACT §10).
    it.effect("round links: instances racing for the first key agree on one, kept encrypted, and read it again later", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const [row] = yield* sql<{ readonly name: string }>`SELECT current_database() AS name`
        const url = yield* Config.Redacted("DATABASE_URL")
        const client = yield* PgClient.make({ url, database: row?.name ?? "", maxConnections: 2 }).pipe(
          Effect.provide(Reactivity.layer)
        )
        for (let round = 0; round < 3; round++) {
          yield* sql`DELETE FROM round_link_keys`
          const [mine, theirs] = yield* Effect.all(
            [RoundLinkKeysPg.keys, RoundLinkKeysPg.keys.pipe(Effect.provideService(SqlClient, client))],
            { concurrency: "unbounded" }
          )
          assert.deepStrictEqual(mine.map(Redacted.value), theirs.map(Redacted.value))
          assert.strictEqual(mine.length, 1)
          const stored = yield* sql<{ readonly key_enc: string }>`SELECT key_enc FROM round_link_keys`
          assert.strictEqual(stored.length, 1)
          assert.notInclude(stored[0]?.key_enc ?? "", Redacted.value(mine[0]!))
          assert.deepStrictEqual((yield* RoundLinkKeysPg.keys).map(Redacted.value), mine.map(Redacted.value))
        }
      }))
  })
})
