import { Duration, Effect, Exit, Layer, Schema } from "effect"
import { LaunchClaims } from "@gateway/domain/LaunchToken"
import { signerKeyCacheSeconds } from "@gateway/domain/LaunchPolicy"
import { LaunchKeyStore } from "@gateway/domain/ports/LaunchKeyStore"
import { LaunchTokenSigner } from "@gateway/domain/ports/LaunchTokenSigner"
import { sign } from "node:crypto"
import * as LaunchKeys from "./LaunchKeys.ts"

const encodeClaims = Schema.encodeSync(LaunchClaims)

const base64url = (text: string) => Buffer.from(text).toString("base64url")

/**
 * Signs launch tokens as compact EdDSA JWS (RFC 7515 / RFC 8037) with the
 * store's current key, its `kid` in the protected header — synchronously
 * with `node:crypto`, which is several times cheaper per token than WebCrypto.
 * The key is read and parsed at most once per `cacheTtl` (default
 * `signerKeyCacheSeconds` of the domain's launch policy), so a rotation
 * reaches every instance within that time. A failed read is not kept: the
 * next launch reads again, so a database that was away for a moment does
 * not refuse launches for a whole TTL after it is back.
 */
export const make = Effect.fnUntraced(function*(options: { readonly cacheTtl?: Duration.Input | undefined } = {}) {
  const store = yield* LaunchKeyStore
  const current = yield* Effect.cachedWithTTL(
    Effect.flatMap(store.current, (key) =>
      Effect.map(LaunchKeys.open(key), (privateKey) => ({
        header: base64url(JSON.stringify({ alg: "EdDSA", typ: "JWT", kid: key.kid })),
        privateKey
      }))),
    (exit) => Exit.isSuccess(exit) ? options.cacheTtl ?? Duration.seconds(signerKeyCacheSeconds) : Duration.zero
  )
  return LaunchTokenSigner.of({
    sign: (claims) =>
      Effect.map(current, (key) => {
        const input = `${key.header}.${base64url(JSON.stringify(encodeClaims(claims)))}`
        return `${input}.${sign(null, Buffer.from(input), key.privateKey).toString("base64url")}`
      })
  })
})

/** The launch signer over the {@link LaunchKeyStore}. */
export const layer: Layer.Layer<LaunchTokenSigner, never, LaunchKeyStore> = Layer.effect(LaunchTokenSigner, make())
