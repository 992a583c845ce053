import { Duration, Effect, Layer, Schema } from "effect"
import { Unauthorized } from "@gateway/domain/Auth"
import { LaunchPolicy } from "@gateway/domain/LaunchPolicy"
import { type LaunchJwk, LaunchClaims, launchAudience } from "@gateway/domain/LaunchToken"
import { LaunchKeyStore } from "@gateway/domain/ports/LaunchKeyStore"
import { LaunchTokenVerifier } from "@gateway/domain/ports/LaunchTokenVerifier"
import { createLocalJWKSet, jwtVerify } from "jose"

/** How long the verifier keeps the public keys; an unknown `kid` refetches them at once. */
export const keyCacheTtl: Duration.Duration = Duration.seconds(10)

const decodeClaims = Schema.decodeUnknownEffect(LaunchClaims)

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined

const invalid = new Unauthorized({ detail: "invalid launch link" })
const expired = new Unauthorized({ detail: "launch link expired" })

/**
 * Verifies launch tokens: EdDSA only, against the store's published keys
 * (cached for `cacheTtl`, refetched once on an unknown `kid` so a rotation on
 * another instance is seen at once), audience `launch`, the policy's issuer,
 * `exp` required; the payload decoded as {@link LaunchClaims}. An expired
 * token is "launch link expired"; any other failure "invalid launch link".
 */
export const make = Effect.fnUntraced(function*(options: { readonly cacheTtl?: Duration.Input | undefined } = {}) {
  const store = yield* LaunchKeyStore
  const policy = yield* LaunchPolicy
  const [keys, invalidate] = yield* Effect.cachedInvalidateWithTTL(store.publicKeys, options.cacheTtl ?? keyCacheTtl)
  const check = (token: string, jwks: ReadonlyArray<LaunchJwk>) =>
    Effect.tryPromise({
      try: () =>
        jwtVerify(token, createLocalJWKSet({ keys: jwks.map((k) => ({ ...k })) }), {
          algorithms: ["EdDSA"],
          audience: launchAudience,
          issuer: policy.issuer,
          requiredClaims: ["exp", "iat", "jti", "sub"]
        }),
      catch: errorCode
    })
  return LaunchTokenVerifier.of({
    verify: (token) =>
      Effect.flatMap(keys, (jwks) => check(token, jwks)).pipe(
        Effect.catchIf(
          (code) => code === "ERR_JWKS_NO_MATCHING_KEY",
          () => Effect.andThen(invalidate, Effect.flatMap(keys, (jwks) => check(token, jwks)))
        ),
        Effect.mapError((code) => code === "ERR_JWT_EXPIRED" ? expired : invalid),
        Effect.flatMap(({ payload }) => Effect.mapError(decodeClaims(payload), () => invalid))
      )
  })
})

/** The launch verifier over the {@link LaunchKeyStore} and the {@link LaunchPolicy} in force. */
export const layer: Layer.Layer<LaunchTokenVerifier, never, LaunchKeyStore> = Layer.effect(LaunchTokenVerifier, make())
