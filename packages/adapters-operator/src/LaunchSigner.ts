import { Duration, Effect, Layer, Schema } from "effect"
import { LaunchClaims } from "@gateway/domain/LaunchToken"
import { LaunchTokenSigner } from "@gateway/domain/ports/LaunchTokenSigner"
import { SignJWT } from "jose"
import { LaunchKeyStore, type SigningKey } from "./LaunchKeyStore.ts"

const encodeClaims = Schema.encodeSync(LaunchClaims)

/**
 * How long a signer keeps the store's current key in memory: a rotation
 * reaches every instance within this time, and a retired key must stay
 * published for the token lifetime plus this time.
 */
export const keyCacheTtl: Duration.Duration = Duration.seconds(60)

/** Signs one token as an EdDSA JWT with the key's `kid` in the header. */
export const signWith = (key: SigningKey, claims: LaunchClaims): Effect.Effect<string> =>
  Effect.promise(() =>
    new SignJWT({ ...encodeClaims(claims) })
      .setProtectedHeader({ alg: "EdDSA", typ: "JWT", kid: key.kid })
      .sign(key.privateKey)
  )

/** A signer over the store's current key, read at most once per `cacheTtl` (default {@link keyCacheTtl}). */
export const make = Effect.fnUntraced(function*(options: { readonly cacheTtl?: Duration.Input | undefined } = {}) {
  const store = yield* LaunchKeyStore
  const current = yield* Effect.cachedWithTTL(store.current, options.cacheTtl ?? keyCacheTtl)
  return LaunchTokenSigner.of({
    sign: (claims) => Effect.flatMap(current, (key) => signWith(key, claims))
  })
})

/** The launch signer over the {@link LaunchKeyStore}, caching the current key for {@link keyCacheTtl}. */
export const layer: Layer.Layer<LaunchTokenSigner, never, LaunchKeyStore> = Layer.effect(LaunchTokenSigner, make())
