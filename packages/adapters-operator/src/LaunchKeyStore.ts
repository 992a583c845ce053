import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { LaunchJwk } from "@gateway/domain/LaunchToken"
import { calculateJwkThumbprint, exportJWK } from "jose"
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto"

/** The public half of a launch signing key as published in the JWKS. */
export const PublicJwk = LaunchJwk
export type PublicJwk = LaunchJwk

/** An Ed25519 signing key with its key id (the JWK thumbprint of its public half). */
export interface SigningKey {
  readonly kid: string
  readonly privateKey: KeyObject
  readonly publicJwk: PublicJwk
}

/** A private key that is not a usable Ed25519 PKCS#8 key; the message is one line, without the key. */
export class InvalidSigningKey extends Schema.TaggedError<InvalidSigningKey>()("InvalidSigningKey", {
  message: Schema.String
}) {}

/**
 * The launch signing keys shared by every server instance (an adapter-internal
 * port: the signer and the JWKS route read it, a database implements it).
 * `current` is the newest live key; `publicKeys` are the live keys plus the
 * retired ones that tokens may still carry; `rotate` makes a new key current
 * and retires the others.
 */
export class LaunchKeyStore extends Context.Service<LaunchKeyStore, {
  readonly current: Effect.Effect<SigningKey>
  readonly publicKeys: Effect.Effect<ReadonlyArray<PublicJwk>>
  readonly rotate: Effect.Effect<SigningKey>
}>()("@gateway/adapters-operator/LaunchKeyStore") {}

const decodePublicJwk = Schema.decodeUnknownEffect(PublicJwk)

/** Builds a {@link SigningKey} from a private key object; fails unless it is Ed25519. */
export const fromPrivateKey = (privateKey: KeyObject): Effect.Effect<SigningKey, InvalidSigningKey> =>
  Effect.gen(function*() {
    if (privateKey.asymmetricKeyType !== "ed25519") {
      return yield* new InvalidSigningKey({ message: `expected an Ed25519 key, got ${privateKey.asymmetricKeyType}` })
    }
    const jwk = yield* Effect.promise(() => exportJWK(createPublicKey(privateKey)))
    const kid = yield* Effect.promise(() => calculateJwkThumbprint(jwk))
    const publicJwk = yield* decodePublicJwk({ ...jwk, kid, alg: "EdDSA", use: "sig" }).pipe(
      Effect.mapError(() => new InvalidSigningKey({ message: "the public half is not an Ed25519 JWK" }))
    )
    return { kid, privateKey, publicJwk }
  })

/** Builds a {@link SigningKey} from a PKCS#8 PEM text. */
export const fromPem = (pem: Redacted.Redacted<string>): Effect.Effect<SigningKey, InvalidSigningKey> =>
  Effect.try({
    try: () => createPrivateKey(Redacted.value(pem)),
    catch: () => new InvalidSigningKey({ message: "not a PKCS#8 PEM private key" })
  }).pipe(Effect.flatMap(fromPrivateKey))

/** The PKCS#8 PEM text of a signing key's private half. */
export const toPem = (key: SigningKey): Redacted.Redacted<string> =>
  Redacted.make(key.privateKey.export({ format: "pem", type: "pkcs8" }).toString())

/** A fresh Ed25519 signing key. */
export const generate: Effect.Effect<SigningKey> = Effect.suspend(() =>
  fromPrivateKey(generateKeyPairSync("ed25519").privateKey)
).pipe(Effect.orDie)

/**
 * A store of one key managed outside the gateway (`LAUNCH_SIGNING_KEY`): it
 * is always current and published alone; `rotate` cannot replace it and
 * answers it unchanged, with a warning.
 */
export const fixed = (key: SigningKey): LaunchKeyStore["Service"] =>
  LaunchKeyStore.of({
    current: Effect.succeed(key),
    publicKeys: Effect.succeed([key.publicJwk]),
    rotate: Effect.logWarning("launch keys come from LAUNCH_SIGNING_KEY; rotate them by changing it").pipe(
      Effect.as(key)
    )
  })

/** {@link fixed} as a layer. */
export const layerFixed = (key: SigningKey): Layer.Layer<LaunchKeyStore> => Layer.succeed(LaunchKeyStore, fixed(key))
