import { Clock, Effect, Result } from "effect"
import { type ApiKeyPrefix, parseApiKey } from "../ApiKey.ts"
import type { Forbidden, Unauthorized } from "../Auth.ts"
import { type CurrencyCode, type CurrencyMismatch, resolveLaunchCurrency } from "../Currency.ts"
import type { GameNotFound } from "../Game.ts"
import { authorise, launchOperation } from "../KeyAccess.ts"
import type { Merchant } from "../Merchant.ts"
import { LaunchPolicy } from "../LaunchPolicy.ts"
import { pageLanguageOf } from "../PageLaunch.ts"
import { LaunchClaims, type LaunchRequest, LaunchUrl, launchAudience, launchUrl } from "../LaunchToken.ts"
import * as Money from "../Money.ts"
import { OperatorBadResponse, type OperatorTimeout, type OperatorUnavailable } from "../Operator.ts"
import { DetailsUrlNotSet, PlayerRejected } from "../Player.ts"
import { type ShopDetails, ShopDetailsUrlNotSet, ShopRejected } from "../Shop.ts"
import type { ApiKeyRepo } from "../ports/ApiKeyRepo.ts"
import { GameCatalog } from "../ports/GameCatalog.ts"
import { Ids } from "../ports/Ids.ts"
import { LaunchTokenSigner } from "../ports/LaunchTokenSigner.ts"
import type { MerchantRepo } from "../ports/MerchantRepo.ts"
import { OperatorDetails } from "../ports/OperatorDetails.ts"
import { authenticateKey } from "./AuthenticateApiKey.ts"

export type LaunchError =
  | Unauthorized
  | Forbidden
  | GameNotFound
  | DetailsUrlNotSet
  | PlayerRejected
  | OperatorTimeout
  | OperatorBadResponse
  | OperatorUnavailable
  | CurrencyMismatch
  | ShopRejected
  | ShopDetailsUrlNotSet

/** The services a launch uses. */
type LaunchServices = GameCatalog | OperatorDetails | LaunchTokenSigner | Ids

/**
 * Builds {@link launchFor} once, with its services (and the launch policy)
 * resolved: the function it returns needs none, so the launch path looks no
 * service up and adds nothing to the request's context (as `makePlayRound`
 * does for bets).
 */
export const makeLaunchFor = Effect.gen(function*() {
  const catalog = yield* GameCatalog
  const details = yield* OperatorDetails
  const signer = yield* LaunchTokenSigner
  const ids = yield* Ids
  const policy = yield* LaunchPolicy
  /** The retail shop of a real-mode launch with a `shopId` (CONTRACT §11), from the merchant's `shopDetailsUrl`. */
  const askShop = Effect.fnUntraced(function*(merchant: Merchant, request: LaunchRequest, shopId: string) {
    const url = merchant.MerchantSettings.shopDetailsUrl
    if (url === undefined) return yield* new ShopDetailsUrlNotSet()
    const shop = yield* details.shop(merchant, url, {
      shopId,
      sessionId: request.sessionId,
      gameId: request.gameId,
      mode: request.mode
    })
    // A blocked shop is ShopRejected (so is a 4xx, from the adapter).
    if (shop.status === "blocked") return yield* new ShopRejected({ detail: "the operator reports the shop as blocked" })
    return shop
  })
  /**
   * The launch URL of a merchant authenticated with a key of `prefix`: test
   * keys (`sv_test`) launch demo mode only (403) → game → (real mode) the
   * operator's Details URL → (real mode with a `shopId`) the shop's Details URL
   * → currency rule → signed token. Demo launches never call the operator: a
   * demo launch with a `shopId` is a cashier's practice page named by the id.
   * Untraced: it is the hot path of the gateway, and a span with its stack
   * capture costs as much as a cached step of it.
   */
  return Effect.fnUntraced(function*(
    merchant: Merchant,
    request: LaunchRequest,
    prefix: ApiKeyPrefix
  ): Effect.fn.Return<LaunchUrl, Exclude<LaunchError, Unauthorized>> {
    const permitted = authorise(prefix, launchOperation(request.mode))
    if (Result.isFailure(permitted)) return yield* permitted.failure
    const game = yield* catalog.find(request.gameId)
    let playerCurrency: string | undefined
    if (request.mode === "real") {
      const detailsUrl = merchant.MerchantSettings.userDetailsUrl
      if (detailsUrl === undefined) return yield* new DetailsUrlNotSet()
      const player = yield* details.fetch(merchant, detailsUrl, {
        playerId: request.playerId,
        sessionId: request.sessionId,
        gameId: request.gameId,
        mode: request.mode,
        ...(request.currency === undefined ? {} : { currency: request.currency })
      })
      if (player.status === "blocked") {
        return yield* new PlayerRejected({ detail: "the operator reports the player as blocked" })
      }
      playerCurrency = player.currency
    }
    const shop = request.mode === "real" && request.shopId !== undefined
      ? yield* askShop(merchant, request, request.shopId)
      : undefined
    const currency = yield* Effect.fromResult(
      resolveLaunchCurrency({
        merchant: merchant.currency,
        requested: request.currency,
        player: playerCurrency,
        shop: shop?.currency
      })
    )
    const limits = yield* Effect.fromResult(shopLimits(shop, currency))
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    // Every value below is already checked (the request decoded, the game found, the currency resolved): the
    // claims are not checked again on every launch.
    const claims = new LaunchClaims({
      iss: policy.issuer,
      aud: launchAudience,
      sub: request.playerId,
      jti: yield* ids.uuid,
      iat: now,
      exp: now + policy.ttlSeconds,
      mid: merchant.id,
      gid: game.id,
      sid: request.sessionId,
      mode: request.mode,
      cur: currency,
      lobby: !request.disableGameLobby,
      ...(request.language === undefined ? {} : { lang: pageLanguageOf(request.language) }),
      ...(request.lobbyUrl === undefined ? {} : { lurl: request.lobbyUrl }),
      ...(request.realityCheckMinutes === undefined ? {} : { rcm: request.realityCheckMinutes }),
      ...(request.shopId === undefined ? {} : { shop: request.shopId, shn: shop?.name ?? request.shopId }),
      ...limits
    }, { disableChecks: true })
    const token = yield* signer.sign(claims)
    return new LaunchUrl({ success: true, url: launchUrl(game.baseLaunchUrl, token) }, { disableChecks: true })
  })
})

/** {@link makeLaunchFor}'s launch, its services taken from the context. */
export const launchFor = (
  merchant: Merchant,
  request: LaunchRequest,
  prefix: ApiKeyPrefix
): Effect.Effect<LaunchUrl, Exclude<LaunchError, Unauthorized>, LaunchServices> =>
  Effect.flatMap(makeLaunchFor, (launch) => launch(merchant, request, prefix))

/**
 * The shop's stake limits as claims (`smin`, `smax`): amounts of the launch's
 * currency, or the shop's answer is not one the gateway can use (502).
 */
const shopLimits = (
  shop: ShopDetails | undefined,
  currency: CurrencyCode
): Result.Result<{ smin?: string; smax?: string }, OperatorBadResponse> => {
  if (shop === undefined) return Result.succeed({})
  const limit = (text: string | undefined) =>
    text === undefined ? Result.succeed(undefined) : Result.map(Money.parse(text, currency), Money.format)
  const minimum = limit(shop.minimumStake)
  const maximum = limit(shop.maximumStake)
  if (Result.isFailure(minimum) || Result.isFailure(maximum)) {
    return Result.fail(new OperatorBadResponse({
      detail: `the operator's shop Details URL answered a stake limit that is not an amount of ${currency}`
    }))
  }
  return Result.succeed({
    ...(minimum.success === undefined ? {} : { smin: minimum.success }),
    ...(maximum.success === undefined ? {} : { smax: maximum.success })
  })
}

/**
 * A signed, time-limited launch URL, checked in the contract's order:
 * API key → game → (real mode) the operator's Details URL → currency rule →
 * token. Demo launches never call the operator.
 */
export const generateLaunchUrl = Effect.fn("generateLaunchUrl")(function*(
  apiKey: string | undefined,
  request: LaunchRequest
): Effect.fn.Return<
  LaunchUrl,
  LaunchError,
  ApiKeyRepo | MerchantRepo | GameCatalog | OperatorDetails | LaunchTokenSigner | Ids
> {
  const key = yield* Effect.fromResult(parseApiKey(apiKey))
  return yield* launchFor(yield* authenticateKey(key), request, key.prefix)
})
