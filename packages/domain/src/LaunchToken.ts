import { Effect, Schema } from "effect"
import { CurrencyCode } from "./Currency.ts"
import { MerchantId } from "./Merchant.ts"
import { LanguageTag, LobbyUrl, PageLanguage, RealityCheckMinutes } from "./PageLaunch.ts"
import { ShopId } from "./Shop.ts"
import { isStorableText } from "./Validation.ts"

/** Money play or free play. */
export const LaunchMode = Schema.Literals(["real", "demo"])
export type LaunchMode = typeof LaunchMode.Type

const Ref = Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(128), isStorableText)

/** The query of `generate-launch-url`, decoded, with the defaults of the contract. */
export const LaunchRequest = Schema.Struct({
  gameId: Ref,
  playerId: Ref,
  sessionId: Ref,
  mode: LaunchMode.pipe(Schema.withDecodingDefaultKey(Effect.succeed("real" as const))),
  disableGameLobby: Schema.Boolean.pipe(Schema.withDecodingDefaultKey(Effect.succeed(false))),
  currency: Schema.optionalKey(CurrencyCode),
  lobbyUrl: Schema.optionalKey(LobbyUrl.annotate({
    description: "The operator's site (absolute http(s) URL, at most 2048 characters): the page's exit button and its error screens lead there",
    examples: ["https://casino.example/lobby"]
  })),
  language: Schema.optionalKey(LanguageTag.annotate({
    description: "The page's language, a BCP 47 tag: `en`, `fr`, `am` or `sw` (a region such as `fr-CA` is ignored); any other: `en`",
    examples: ["fr"]
  })),
  realityCheckMinutes: Schema.optionalKey(RealityCheckMinutes.annotate({
    description: "Every this many minutes (5..120) the page shows the session's time and net result, with continue or leave"
  })),
  shopId: Schema.optionalKey(ShopId)
})
export type LaunchRequest = typeof LaunchRequest.Type

/** The audience of every launch token. */
export const launchAudience = "launch"

/** The claims of a launch JWT (CONTRACT §3). */
export class LaunchClaims extends Schema.Class<LaunchClaims>("@gateway/domain/LaunchClaims")(Schema.Struct({
  iss: Schema.String,
  aud: Schema.Literal(launchAudience),
  sub: Schema.String,
  jti: Schema.String.check(Schema.isUUID()),
  iat: Schema.Int,
  exp: Schema.Int,
  mid: MerchantId,
  gid: Schema.String,
  sid: Schema.String,
  mode: LaunchMode,
  cur: CurrencyCode,
  lobby: Schema.Boolean,
  lang: Schema.optionalKey(PageLanguage),
  lurl: Schema.optionalKey(Schema.String),
  rcm: Schema.optionalKey(Schema.Int),
  /** The retail shop (CONTRACT §11): its id, name and stake limits (decimal strings) as its Details URL gave them. */
  shop: Schema.optionalKey(Schema.String),
  shn: Schema.optionalKey(Schema.String),
  smin: Schema.optionalKey(Schema.String),
  smax: Schema.optionalKey(Schema.String)
}).annotate({
  identifier: "LaunchClaims",
  description: "The claims of a launch JWT (CONTRACT §3)."
})) {}

/** A public key that verifies launch tokens, as published in the JWKS (RFC 8037 OKP JWK). */
export const LaunchJwk = Schema.Struct({
  kty: Schema.Literal("OKP").annotate({ description: "Key type: an octet key pair (RFC 8037)" }),
  crv: Schema.Literal("Ed25519").annotate({ description: "The curve" }),
  x: Schema.String.annotate({ description: "The public key, base64url" }),
  kid: Schema.String.annotate({ description: "The key's id: the `kid` in the header of the tokens it verifies" }),
  alg: Schema.Literal("EdDSA").annotate({ description: "The signature algorithm" }),
  use: Schema.Literal("sig").annotate({ description: "Signatures" })
}).annotate({ identifier: "LaunchJwk" })
export type LaunchJwk = typeof LaunchJwk.Type

/** A launch token that was redeemed before. */
export class TokenAlreadyUsed extends Schema.TaggedError<TokenAlreadyUsed>()("TokenAlreadyUsed", {}) {
  override get message(): string {
    return "this launch link was used already; ask the operator for a new one"
  }
}

/** The answer of `generate-launch-url`. */
export class LaunchUrl extends Schema.Class<LaunchUrl>("@gateway/domain/LaunchUrl")(Schema.Struct({
  success: Schema.Literal(true).annotate({ description: "Always `true`" }),
  url: Schema.String.annotate({ description: "The launch URL: the game's `baseLaunchUrl` with a one-time `token` query parameter; open it in the player's browser" })
}).annotate({
  identifier: "LaunchUrl",
  description: "The answer of `generate-launch-url`."
})) {}

/** `baseLaunchUrl` with the token appended as the `token` query parameter. */
export const launchUrl = (baseLaunchUrl: string, token: string): string => {
  const [beforeHash = "", ...hash] = baseLaunchUrl.split("#")
  const separator = beforeHash.includes("?") ? "&" : "?"
  const fragment = hash.length > 0 ? `#${hash.join("#")}` : ""
  return `${beforeHash}${separator}token=${encodeURIComponent(token)}${fragment}`
}
