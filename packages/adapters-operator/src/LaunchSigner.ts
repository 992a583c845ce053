import { Config, Effect, Layer, Option, Redacted, Schema } from "effect"
import { LaunchClaims } from "@gateway/domain/LaunchToken"
import { LaunchTokenSigner } from "@gateway/domain/ports/LaunchTokenSigner"
import { calculateJwkThumbprint, exportJWK, type JWK, SignJWT } from "jose"
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto"

/** An Ed25519 signing key with its key id (the JWK thumbprint of its public half). */
export interface SigningKey {
  readonly kid: string
  readonly privateKey: KeyObject
  readonly publicJwk: JWK
}

/** Builds a {@link SigningKey} from a PKCS#8 private key. */
export const fromPrivateKey = (privateKey: KeyObject): Effect.Effect<SigningKey> =>
  Effect.promise(async () => {
    const jwk = await exportJWK(createPublicKey(privateKey))
    const kid = await calculateJwkThumbprint(jwk)
    return { kid, privateKey, publicJwk: { ...jwk, kid, alg: "EdDSA", use: "sig" } }
  })

/** A fresh Ed25519 signing key. */
export const generate: Effect.Effect<SigningKey> = Effect.suspend(() =>
  fromPrivateKey(generateKeyPairSync("ed25519").privateKey)
)

const encodeClaims = Schema.encodeSync(LaunchClaims)

/** Signs launch tokens as EdDSA JWTs with `kid` in the header. */
export const make = (key: SigningKey) =>
  LaunchTokenSigner.of({
    sign: (claims) =>
      Effect.promise(() =>
        new SignJWT({ ...encodeClaims(claims) })
          .setProtectedHeader({ alg: "EdDSA", typ: "JWT", kid: key.kid })
          .sign(key.privateKey)
      )
  })

/**
 * The launch signer with its key from `LAUNCH_SIGNING_KEY` (a PKCS#8 PEM
 * Ed25519 private key), or a key generated at start-up when it is absent.
 */
export const layerConfig = Layer.effect(
  LaunchTokenSigner,
  Effect.gen(function*() {
    const pem = yield* Config.option(Config.Redacted("LAUNCH_SIGNING_KEY"))
    const key = yield* Option.match(pem, {
      onNone: () => generate,
      onSome: (value) => fromPrivateKey(createPrivateKey(Redacted.value(value)))
    })
    return make(key)
  })
)
