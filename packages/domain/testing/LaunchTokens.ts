import { Effect, Layer, Redacted, Schema } from "effect"
import { Unauthorized } from "../src/Auth.ts"
import { LaunchClaims } from "../src/LaunchToken.ts"
import { LaunchKeyStore, type LaunchSigningKey } from "../src/ports/LaunchKeyStore.ts"
import { LaunchTokenSigner } from "../src/ports/LaunchTokenSigner.ts"
import { LaunchTokenVerifier } from "../src/ports/LaunchTokenVerifier.ts"

const decodeClaims = Schema.decodeUnknownEffect(Schema.fromJsonString(LaunchClaims))
const encodeClaims = Schema.encodeSync(Schema.fromJsonString(LaunchClaims))

/** A "launch token" that {@link jsonVerifier} accepts: the JSON of the claims. */
export const launchToken = (claims: LaunchClaims): string => encodeClaims(claims)

/** A signer whose "token" is the JSON of the claims, so tests can read them back. */
export const jsonSigner = Layer.succeed(
  LaunchTokenSigner,
  LaunchTokenSigner.of({ sign: (claims) => Effect.succeed(launchToken(claims)) })
)

/** Verifies tokens made by {@link launchToken}: expired → "launch link expired", anything else bad → "invalid launch link" (`acceptExpired`: expired is fine). */
export const jsonVerifier = Layer.succeed(
  LaunchTokenVerifier,
  LaunchTokenVerifier.of({
    verify: (token, options) =>
      decodeClaims(token).pipe(
        Effect.mapError(() => new Unauthorized({ detail: "invalid launch link" })),
        Effect.filterOrFail(
          (claims) => options?.acceptExpired === true || claims.exp > Date.now() / 1000,
          () => new Unauthorized({ detail: "launch link expired" })
        )
      )
  })
)

/** A placeholder signing key (its PEM is no real key): for tests that only publish or rotate keys. */
export const placeholderLaunchKey: LaunchSigningKey = {
  kid: "test-kid",
  privateKey: Redacted.make("-----BEGIN PRIVATE KEY-----"),
  publicJwk: { kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", kid: "test-kid", alg: "EdDSA", use: "sig" }
}

/** A key store holding one key that never changes; `rotate` answers it. */
export const fixedLaunchKeys = (key: LaunchSigningKey = placeholderLaunchKey) =>
  Layer.succeed(
    LaunchKeyStore,
    LaunchKeyStore.of({
      current: Effect.succeed(key),
      publicKeys: Effect.succeed([key.publicJwk]),
      resumableKeys: Effect.succeed([key.publicJwk]),
      rotate: Effect.succeed(key)
    })
  )
