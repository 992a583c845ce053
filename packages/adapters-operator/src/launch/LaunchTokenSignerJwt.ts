import { Duration, Effect, Layer, Schema } from "effect"
import { LaunchClaims } from "@gateway/domain/LaunchToken"
import { signerKeyCacheSeconds } from "@gateway/domain/LaunchPolicy"
import { LaunchKeyStore } from "@gateway/domain/ports/LaunchKeyStore"
import { LaunchTokenSigner } from "@gateway/domain/ports/LaunchTokenSigner"
import { SignJWT } from "jose"
import * as LaunchKeys from "./LaunchKeys.ts"

const encodeClaims = Schema.encodeSync(LaunchClaims)

/**
 * Signs launch tokens as EdDSA JWTs with the store's current key (its `kid`
 * in the header). The key is read and parsed at most once per `cacheTtl`
 * (default `signerKeyCacheSeconds` of the domain's launch policy), so a
 * rotation reaches every instance within that time.
 */
export const make = Effect.fnUntraced(function*(options: { readonly cacheTtl?: Duration.Input | undefined } = {}) {
  const store = yield* LaunchKeyStore
  const current = yield* Effect.cachedWithTTL(
    Effect.flatMap(store.current, (key) => Effect.map(LaunchKeys.open(key), (privateKey) => ({ kid: key.kid, privateKey }))),
    options.cacheTtl ?? Duration.seconds(signerKeyCacheSeconds)
  )
  return LaunchTokenSigner.of({
    sign: (claims) =>
      Effect.flatMap(current, (key) =>
        Effect.promise(() =>
          new SignJWT({ ...encodeClaims(claims) })
            .setProtectedHeader({ alg: "EdDSA", typ: "JWT", kid: key.kid })
            .sign(key.privateKey)
        ))
  })
})

/** The launch signer over the {@link LaunchKeyStore}. */
export const layer: Layer.Layer<LaunchTokenSigner, never, LaunchKeyStore> = Layer.effect(LaunchTokenSigner, make())
