import { Effect, Layer, Redacted, Schema } from "effect"
import { LaunchJwk } from "@gateway/domain/LaunchToken"
import { LaunchKeyGenerator, LaunchKeyStore, type LaunchSigningKey } from "@gateway/domain/ports/LaunchKeyStore"
import { calculateJwkThumbprint, exportJWK } from "jose"
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto"

/** A private key that is not a usable Ed25519 PKCS#8 key; the message is one line, without the key. */
export class InvalidSigningKey extends Schema.TaggedError<InvalidSigningKey>()("InvalidSigningKey", {
  message: Schema.String
}) {}

const decodeJwk = Schema.decodeUnknownEffect(LaunchJwk)

const pemOf = (privateKey: KeyObject): Redacted.Redacted<string> =>
  Redacted.make(privateKey.export({ format: "pem", type: "pkcs8" }).toString())

const fromKeyObject = (privateKey: KeyObject): Effect.Effect<LaunchSigningKey, InvalidSigningKey> =>
  Effect.gen(function*() {
    if (privateKey.asymmetricKeyType !== "ed25519") {
      return yield* new InvalidSigningKey({ message: `expected an Ed25519 key, got ${privateKey.asymmetricKeyType}` })
    }
    const jwk = yield* Effect.promise(() => exportJWK(createPublicKey(privateKey)))
    const kid = yield* Effect.promise(() => calculateJwkThumbprint(jwk))
    const publicJwk = yield* decodeJwk({ ...jwk, kid, alg: "EdDSA", use: "sig" }).pipe(
      Effect.mapError(() => new InvalidSigningKey({ message: "the public half is not an Ed25519 JWK" }))
    )
    return { kid, privateKey: pemOf(privateKey), publicJwk }
  })

const parsePem = (pem: Redacted.Redacted<string>): Effect.Effect<KeyObject, InvalidSigningKey> =>
  Effect.try({
    try: () => createPrivateKey(Redacted.value(pem)),
    catch: () => new InvalidSigningKey({ message: "not a PKCS#8 PEM private key" })
  })

/** A launch signing key from a PKCS#8 PEM text; its kid is the JWK thumbprint of the public half. */
export const fromPem = (pem: Redacted.Redacted<string>): Effect.Effect<LaunchSigningKey, InvalidSigningKey> =>
  Effect.flatMap(parsePem(pem), fromKeyObject)

/** A fresh Ed25519 launch signing key. */
export const generate: Effect.Effect<LaunchSigningKey> = Effect.suspend(() =>
  fromKeyObject(generateKeyPairSync("ed25519").privateKey)
).pipe(Effect.orDie)

/** Ed25519 keys from `node:crypto`, for the stores that create and rotate them. */
export const generatorLayer: Layer.Layer<LaunchKeyGenerator> = Layer.succeed(
  LaunchKeyGenerator,
  LaunchKeyGenerator.of({ generate })
)

/** The private key object of a stored key; a key whose PEM does not match its kid is a defect. */
export const open = (key: LaunchSigningKey): Effect.Effect<KeyObject> =>
  Effect.gen(function*() {
    const privateKey = yield* parsePem(key.privateKey)
    const { kid } = yield* fromKeyObject(privateKey)
    if (kid !== key.kid) return yield* Effect.die(new Error(`launch signing key ${key.kid} does not match its kid`))
    return privateKey
  }).pipe(Effect.catchTag("InvalidSigningKey", Effect.die))

/**
 * A store of keys managed outside the gateway (`LAUNCH_SIGNING_KEY`): `key`
 * is always current; it and the `previous` keys of a rotation are published,
 * so tokens they signed still verify, and are all the keys a resume may use
 * (a key taken out of the variable verifies nothing). `rotate` cannot replace
 * it and answers it unchanged, with a warning.
 */
export const fixed = (key: LaunchSigningKey, previous: ReadonlyArray<LaunchSigningKey> = []): LaunchKeyStore["Service"] => {
  const published = [key, ...previous.filter((p) => p.kid !== key.kid)].map((k) => k.publicJwk)
  return LaunchKeyStore.of({
    current: Effect.succeed(key),
    publicKeys: Effect.succeed(published),
    resumableKeys: Effect.succeed(published),
    rotate: Effect.logWarning("launch keys come from LAUNCH_SIGNING_KEY; rotate them by changing it").pipe(Effect.as(key))
  })
}

const pemBlock = /-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g

/**
 * {@link fixed} over the PEM blocks in `pem`: the first signs, the others (a
 * rotation's previous keys, one block after another) are only published. A
 * bad key fails naming `LAUNCH_SIGNING_KEY` and its place, never its text.
 */
export const layerFixed = (pem: Redacted.Redacted<string>): Layer.Layer<LaunchKeyStore, InvalidSigningKey> =>
  Layer.effect(
    LaunchKeyStore,
    Effect.gen(function*() {
      const blocks = Redacted.value(pem).match(pemBlock) ?? [Redacted.value(pem)]
      const keys = yield* Effect.forEach(blocks, (block, index) =>
        fromPem(Redacted.make(block)).pipe(
          Effect.mapError((error) =>
            new InvalidSigningKey({
              message: blocks.length === 1
                ? `LAUNCH_SIGNING_KEY: ${error.message}`
                : `LAUNCH_SIGNING_KEY: key ${index + 1} of ${blocks.length}: ${error.message}`
            })
          )
        ))
      const [current, ...previous] = keys
      return current === undefined
        ? yield* new InvalidSigningKey({ message: "LAUNCH_SIGNING_KEY: no key" })
        : fixed(current, previous)
    })
  )
