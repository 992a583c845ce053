import { Duration, Effect, Exit, Layer } from "effect"
import type { LaunchClaims } from "@gateway/domain/LaunchToken"
import { signerKeyCacheSeconds } from "@gateway/domain/LaunchPolicy"
import { LaunchKeyStore } from "@gateway/domain/ports/LaunchKeyStore"
import { LaunchTokenSigner } from "@gateway/domain/ports/LaunchTokenSigner"
import { sign } from "node:crypto"
import * as LaunchKeys from "./LaunchKeys.ts"

const base64url = (text: string) => Buffer.from(text).toString("base64url")

/**
 * The claims as their schema encodes them, in its order: every claim is its own encoding (strings, integers, a
 * boolean), so the payload is written directly instead of encoded by the schema on every launch (a sixth of the
 * launch's schema work, bench/README.md "The fourteenth pass"). Each claim must be named here (`-?`): a claim
 * added to `LaunchClaims` fails the type-check until it is, and a test compares this with the schema's encoding.
 */
const payloadOf = (c: LaunchClaims): string => {
  const payload: { readonly [K in keyof typeof LaunchClaims.Encoded]-?: (typeof LaunchClaims.Encoded)[K] | undefined } = {
    iss: c.iss,
    aud: c.aud,
    sub: c.sub,
    jti: c.jti,
    iat: c.iat,
    exp: c.exp,
    mid: c.mid,
    gid: c.gid,
    sid: c.sid,
    mode: c.mode,
    cur: c.cur,
    lobby: c.lobby,
    lang: c.lang,
    lurl: c.lurl,
    rcm: c.rcm,
    shop: c.shop,
    shn: c.shn,
    smin: c.smin,
    smax: c.smax
  }
  // Absent claims (undefined) are left out, as the schema leaves out an absent optional key.
  return JSON.stringify(payload)
}

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
        const input = `${key.header}.${base64url(payloadOf(claims))}`
        return `${input}.${sign(null, Buffer.from(input), key.privateKey).toString("base64url")}`
      })
  })
})

/** The launch signer over the {@link LaunchKeyStore}. */
export const layer: Layer.Layer<LaunchTokenSigner, never, LaunchKeyStore> = Layer.effect(LaunchTokenSigner, make())
