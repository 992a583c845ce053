import { FreeRounds } from "../ports/FreeRounds.ts"
import { Effect, Redacted, Result } from "effect"
import { Forbidden, type Unauthorized } from "../Auth.ts"
import { type CurrencyMismatch, resolveLaunchCurrency } from "../Currency.ts"
import { commitmentOf } from "../Fairness.ts"
import { demoStartingBalance, type PageSettings, SessionOpened } from "../GameSession.ts"
import { type LaunchClaims, TokenAlreadyUsed } from "../LaunchToken.ts"
import type { Merchant, MerchantId, MerchantNotFound } from "../Merchant.ts"
import * as Money from "../Money.ts"
import type { OperatorBadResponse, OperatorTimeout, OperatorUnavailable } from "../Operator.ts"
import { pageLaunchOf } from "../PageLaunch.ts"
import { type SessionShop, ShopDetailsUrlNotSet, ShopRejected } from "../Shop.ts"
import { DetailsUrlNotSet, PlayerRejected } from "../Player.ts"
import { GameRetired } from "../Game.ts"
import * as Games from "../games/Games.ts"
import { FairRandom } from "../ports/FairRandom.ts"
import { GameCatalog } from "../ports/GameCatalog.ts"
import { GameSessionRepo } from "../ports/GameSessionRepo.ts"
import { LaunchTokenVerifier } from "../ports/LaunchTokenVerifier.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"
import { OperatorDetails } from "../ports/OperatorDetails.ts"
import { newSessionSeed } from "./Fairness.ts"

/**
 * The page settings of a merchant, its stake limits narrowed by the shop's
 * (CONTRACT §11) when the session is played at a shop that set some.
 */
export const pageSettings = (merchant: Merchant, shop?: SessionShop): PageSettings => {
  const s = merchant.MerchantSettings
  const minimumStake = narrowed(s.minimumStake, shop?.minimumStake, Math.max)
  const maximumStake = narrowed(s.maximumStake, shop?.maximumStake, Math.min)
  return {
    hideBalance: s.hideBalance ?? false,
    ...(s.logo1xUrl === undefined ? {} : { logo1xUrl: s.logo1xUrl }),
    ...(s.logo2xUrl === undefined ? {} : { logo2xUrl: s.logo2xUrl }),
    ...(s.cupImageUrl === undefined ? {} : { cupImageUrl: s.cupImageUrl }),
    ...(s.fontFamilyUrl === undefined ? {} : { fontFamilyUrl: s.fontFamilyUrl }),
    ...(minimumStake === undefined ? {} : { minimumStake }),
    ...(maximumStake === undefined ? {} : { maximumStake })
  }
}

const narrowed = (own: number | undefined, shop: string | undefined, pick: (a: number, b: number) => number) =>
  shop === undefined ? own : own === undefined ? Number(shop) : pick(own, Number(shop))

/**
 * Redeems a launch token once and opens a game session with its first
 * committed server seed. Demo sessions get a virtual balance. Real sessions
 * claim the token's single use first (a used link: TokenAlreadyUsed, and the
 * operator is never asked), then re-apply the launch rules: the operator's
 * Details URL gives the balance, and a player it now reports blocked
 * (PlayerRejected), in another currency than the launch's
 * (CurrencyMismatch), a shop launch whose shop the `shopDetailsUrl` now
 * reports blocked or unknown (ShopRejected) or in another currency
 * (CurrencyMismatch), or an operator that fails, gets no session — the
 * claim is given back, so the link still redeems while it lives when the
 * operator had a passing fault (one Details call at a time per link).
 */
export const openSession = Effect.fn("openSession")(function*(token: string): Effect.fn.Return<
  SessionOpened,
  | Unauthorized
  | Forbidden
  | TokenAlreadyUsed
  | GameRetired
  | MerchantNotFound
  | DetailsUrlNotSet
  | PlayerRejected
  | CurrencyMismatch
  | ShopRejected
  | ShopDetailsUrlNotSet
  | OperatorTimeout
  | OperatorBadResponse
  | OperatorUnavailable,
  LaunchTokenVerifier | MerchantRepo | GameCatalog | GameSessionRepo | OperatorDetails | FairRandom | FreeRounds
> {
  const claims = yield* (yield* LaunchTokenVerifier).verify(token)
  const merchant = yield* activeMerchant(claims.mid)
  yield* (yield* GameCatalog).find(claims.gid).pipe(
    Effect.catchTag("GameNotFound", () => Effect.fail(new GameRetired({ gameId: claims.gid })))
  )
  const sessions = yield* GameSessionRepo
  const demoBalance = Result.getOrThrow(Money.parse(demoStartingBalance, claims.cur)).minor
  let balance = Money.format(Money.make(demoBalance, claims.cur))
  const real = claims.mode === "real"
  if (real) {
    const url = yield* detailsUrlOf(merchant)
    yield* sessions.claim(claims.jti)
    balance = yield* recheck(merchant, url, claims).pipe(
      Effect.onError(() => sessions.release(claims.jti))
    )
  }
  const seed = newSessionSeed(yield* FairRandom)
  // Real sessions are reported to the operator's callbackUrl; demo play is nobody's business but the player's.
  const reported = real && merchant.MerchantSettings.callbackUrl !== undefined
  const opened = yield* sessions.open(claims, real ? 0n : demoBalance, seed, real, reported, rtpInForce(merchant, claims))
  return new SessionOpened({
    sessionToken: Redacted.value(opened.sessionToken),
    session: opened.session,
    balance,
    settings: pageSettings(merchant, opened.session.shop),
    fairness: commitmentOf({ ...seed, nonce: 0 }),
    launch: pageLaunchOf(claims),
    freeRounds: real ? yield* (yield* FreeRounds).available(merchant.id, claims.sub, claims.gid) : []
  })
})

/**
 * Resumes the session a launch token opened, for a page that loads its used link again: framed by a casino's
 * site, Chromium gives the frame no storage, so when the casino's page reloads, its frame comes back with the same
 * link and nothing else (CONTRACT §6, docs/decisions.md). The token's signature must verify (an expired one is
 * accepted: a reload may come long after the link's few minutes; a forged one is Unauthorized), and
 * `sessionToken` is the one the resume cookie bound to that very link when it was redeemed: without it, or with a
 * session that expired or was not opened by this launch, the answer is the used link's TokenAlreadyUsed; a
 * session the operator ended is SessionEnded. The answer has the opening's shape with the session as it is now: the balance (real money:
 * the operator's Details URL again, as at the opening; demo: the virtual balance), the current commitment and
 * the free rounds left.
 */
export const resumeSession = Effect.fn("resumeSession")(function*(token: string, sessionToken: string | undefined) {
  const claims = yield* (yield* LaunchTokenVerifier).verify(token, { acceptExpired: true })
  if (sessionToken === undefined) return yield* new TokenAlreadyUsed()
  const sessions = yield* GameSessionRepo
  // A session the operator ended (CONTRACT §12) says so, to the browser holding its cookie; one that expired or is
  // unknown is the used link's 409.
  const session = yield* sessions.authenticate(sessionToken).pipe(
    Effect.catchTag("SessionExpired", () => Effect.fail(new TokenAlreadyUsed()))
  )
  const ours = session.merchantId === claims.mid && session.playerId === claims.sub && session.gameId === claims.gid &&
    session.operatorSessionId === claims.sid && session.mode === claims.mode
  if (!ours) return yield* new TokenAlreadyUsed()
  const merchant = yield* activeMerchant(session.merchantId)
  const real = session.mode === "real"
  const balance = real
    ? yield* recheck(merchant, yield* detailsUrlOf(merchant), claims)
    : Money.format(Money.make(yield* sessions.demoBalance(session.id), claims.cur))
  return new SessionOpened({
    sessionToken,
    session,
    balance,
    settings: pageSettings(merchant, session.shop),
    fairness: yield* sessions.commitment(session.id),
    launch: pageLaunchOf(claims),
    freeRounds: real ? yield* (yield* FreeRounds).available(merchant.id, session.playerId, session.gameId) : []
  })
})

/**
 * The RTP of every game the session may play (the launched one; with the lobby, every built-in game), from the
 * merchant's settings now: kept with the session, so a later change applies to sessions opened after it.
 */
const rtpInForce = (merchant: Merchant, claims: LaunchClaims): Record<string, string> =>
  Object.fromEntries(
    (claims.lobby ? Games.allRules.map((rules) => rules.id) : [claims.gid]).map((gameId) => [
      gameId,
      Games.formatRtp(Games.rtpFor(gameId, merchant.MerchantSettings))
    ])
  )

/** The merchant of a launch, when its account is active (else Forbidden). */
const activeMerchant = Effect.fnUntraced(function*(id: MerchantId) {
  const merchant = yield* (yield* MerchantRepo).findById(id)
  if (merchant.accountStatus !== "active") {
    return yield* new Forbidden({ detail: `merchant account is ${merchant.accountStatus}` })
  }
  return merchant
})

/** The merchant's Details URL, which a real-money session needs (else DetailsUrlNotSet). */
const detailsUrlOf = (merchant: Merchant) => {
  const url = merchant.MerchantSettings.userDetailsUrl
  return url === undefined ? Effect.fail(new DetailsUrlNotSet()) : Effect.succeed(url)
}

/**
 * The launch rules again at redemption (CONTRACT §6), with the operator's Details URL and, for a shop's launch,
 * its `shopDetailsUrl` (§11): the player's balance, or why not. The shop is asked again for its status and
 * currency only: its name and stake limits stay those signed into the token at launch, a minute earlier at most.
 */
const recheck = Effect.fnUntraced(function*(merchant: Merchant, url: string, claims: LaunchClaims) {
  const currency = claims.cur
  const details = yield* OperatorDetails
  const player = yield* details.fetch(merchant, url, {
    playerId: claims.sub,
    sessionId: claims.sid,
    gameId: claims.gid,
    mode: claims.mode,
    currency
  })
  if (player.status === "blocked") {
    return yield* new PlayerRejected({ detail: "the operator reports the player as blocked" })
  }
  yield* Effect.fromResult(resolveLaunchCurrency({ merchant: currency, requested: undefined, player: player.currency }))
  if (claims.shop !== undefined) {
    const shopUrl = merchant.MerchantSettings.shopDetailsUrl
    if (shopUrl === undefined) return yield* new ShopDetailsUrlNotSet()
    const shop = yield* details.shop(merchant, shopUrl, {
      shopId: claims.shop,
      sessionId: claims.sid,
      gameId: claims.gid,
      mode: claims.mode
    })
    if (shop.status === "blocked") return yield* new ShopRejected({ detail: "the operator reports the shop as blocked" })
    yield* Effect.fromResult(resolveLaunchCurrency({ merchant: currency, requested: undefined, shop: shop.currency }))
  }
  return player.balance
})
