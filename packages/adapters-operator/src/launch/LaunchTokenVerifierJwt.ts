import { Clock, Duration, Effect, Exit, Layer, Schema } from "effect"
import { Unauthorized } from "@gateway/domain/Auth"
import { LaunchPolicy } from "@gateway/domain/LaunchPolicy"
import { type LaunchJwk, LaunchClaims, launchAudience } from "@gateway/domain/LaunchToken"
import { LaunchKeyStore } from "@gateway/domain/ports/LaunchKeyStore"
import { LaunchTokenVerifier } from "@gateway/domain/ports/LaunchTokenVerifier"
import { createLocalJWKSet, errors, jwtVerify } from "jose"

/** How long the verifier keeps the public keys; an unknown `kid` refetches them at once. */
export const keyCacheTtl: Duration.Duration = Duration.seconds(10)

/**
 * At most one refetch for an unknown `kid` per this interval: forged tokens
 * with random `kid`s cost no database query beyond it. A key rotated in on
 * another instance is still seen within this interval or the cache's TTL.
 */
export const unknownKidRefetchInterval: Duration.Duration = Duration.seconds(5)

const decodeClaims = Schema.decodeUnknownEffect(LaunchClaims)

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined

const invalid = new Unauthorized({ detail: "invalid launch link" })
const expired = new Unauthorized({ detail: "launch link expired" })

/**
 * Verifies launch tokens: EdDSA only, against the store's published keys
 * (with `acceptExpired`, its resumable keys: those and the retired ones whose
 * links a page may still resume; each set cached for `cacheTtl`, refetched
 * on an unknown `kid` so a rotation on another instance is seen at once, but
 * at most once per `unknownKidRefetchInterval`), audience `launch`, the
 * policy's issuer,
 * `exp` required; the payload decoded as {@link LaunchClaims}. An expired
 * token is "launch link expired"; any other failure "invalid launch link".
 * A failed read of the keys is not kept: a database that was away for a
 * moment must not refuse every session for a whole TTL after it is back.
 */
export const make = Effect.fnUntraced(function*(options: {
  readonly cacheTtl?: Duration.Input | undefined
  readonly refetchInterval?: Duration.Input | undefined
} = {}) {
  const store = yield* LaunchKeyStore
  const policy = yield* LaunchPolicy
  const keySet = (jwks: ReadonlyArray<LaunchJwk>) => createLocalJWKSet({ keys: jwks.map((k) => ({ ...k })) })
  const cacheTtl = options.cacheTtl ?? keyCacheTtl
  const refetchMs = Duration.toMillis(Duration.fromInputUnsafe(options.refetchInterval ?? unknownKidRefetchInterval))
  /**
   * A set of keys, kept for `cacheTtl`, and the same set again for an unknown `kid` unless it was refetched less
   * than `refetchMs` ago.
   */
  const cachedKeys = Effect.fnUntraced(function*(read: Effect.Effect<ReadonlyArray<LaunchJwk>>) {
    const [keys, invalidate] = yield* Effect.cachedInvalidateWithTTL(
      Effect.map(read, keySet),
      (exit) => Exit.isSuccess(exit) ? cacheTtl : Duration.zero
    )
    let refetchedAt = Number.NEGATIVE_INFINITY
    const refetched = (code: string | undefined) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        if (now - refetchedAt < refetchMs) return Effect.fail(code)
        refetchedAt = now
        return Effect.andThen(invalidate, keys)
      })
    return { keys, refetched }
  })
  const live = yield* cachedKeys(store.publicKeys)
  // An expired token is verified for its page and its resume, with the retired keys a resume may still need.
  const resumable = yield* cachedKeys(store.resumableKeys)
  // jose checks `exp` after the signature, issuer, audience and required claims: its JWTExpired carries the
  // payload that passed them, which `acceptExpired` takes.
  const check = (token: string, getKey: ReturnType<typeof keySet>, acceptExpired: boolean) =>
    Effect.tryPromise({
      try: () =>
        jwtVerify(token, getKey, {
          algorithms: ["EdDSA"],
          audience: launchAudience,
          issuer: policy.issuer,
          requiredClaims: ["exp", "iat", "jti", "sub"]
        }).then(({ payload }) => payload, (error: unknown) => {
          if (acceptExpired && error instanceof errors.JWTExpired && error.claim === "exp") return error.payload
          throw error
        }),
      catch: errorCode
    })
  return LaunchTokenVerifier.of({
    verify: (token, options) => {
      const acceptExpired = options?.acceptExpired === true
      const { keys, refetched } = acceptExpired ? resumable : live
      return Effect.flatMap(keys, (getKey) => check(token, getKey, acceptExpired)).pipe(
        Effect.catchIf(
          (code) => code === "ERR_JWKS_NO_MATCHING_KEY",
          (code) => Effect.flatMap(refetched(code), (getKey) => check(token, getKey, acceptExpired))
        ),
        Effect.mapError((code) => code === "ERR_JWT_EXPIRED" ? expired : invalid),
        Effect.flatMap((payload) => Effect.mapError(decodeClaims(payload), () => invalid))
      )
    }
  })
})

/** The launch verifier over the {@link LaunchKeyStore} and the {@link LaunchPolicy} in force. */
export const layer: Layer.Layer<LaunchTokenVerifier, never, LaunchKeyStore> = Layer.effect(LaunchTokenVerifier, make())
