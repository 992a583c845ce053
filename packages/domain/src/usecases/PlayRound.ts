import { Context, Effect, Result } from "effect"
import { Forbidden } from "../Auth.ts"
import type { NoFreeRounds } from "../FreeRound.ts"
import { FreeRounds } from "../ports/FreeRounds.ts"
import { playFreeRound } from "./PlayFreeRound.ts"
import type { CurrencyCode } from "../Currency.ts"
import { type GameSession, rtpInSession, type SessionExpired } from "../GameSession.ts"
import type { SessionEnded } from "../SessionControl.ts"
import type { AutoplayLimitReached } from "../Autoplay.ts"
import type { Merchant, MerchantNotFound } from "../Merchant.ts"
import { stakeLimitMinor } from "../MerchantSettings.ts"
import * as Money from "../Money.ts"
import { commitmentOf, type RoundSeed } from "../Fairness.ts"
import { type GameNotFound, GameRetired } from "../Game.ts"
import { sessionRefOf } from "../Callback.ts"
import * as Draws from "../games/Draws.ts"
import * as Games from "../games/Games.ts"
import { FairRandom } from "../ports/FairRandom.ts"
import { GameCatalog } from "../ports/GameCatalog.ts"
import type { OperatorUnavailable } from "../Operator.ts"
import { GameSessionRepo } from "../ports/GameSessionRepo.ts"
import { Ids } from "../ports/Ids.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"
import { RoundLedger } from "../ports/RoundLedger.ts"
import { WalletClient } from "../ports/WalletClient.ts"
import { type PlayRequest, RoundResult } from "../Round.ts"
import { ValidationFailed } from "../Validation.ts"
import {
  type BetRefused,
  type InsufficientFunds,
  type WalletTransaction,
  type WalletUnavailable,
  webhookUrlFor,
  WebhookUrlNotSet
} from "../Wallet.ts"

/** A shop's stake limit (a decimal string of the session's currency, checked at launch) in minor units. */
const shopLimit = (text: string | undefined, session: { readonly currency: CurrencyCode }): bigint | undefined => {
  if (text === undefined) return undefined
  const parsed = Money.parse(text, session.currency)
  return Result.isSuccess(parsed) ? parsed.success.minor : undefined
}

/**
 * The stake in minor units: an amount of the session's currency (no more
 * fraction digits than it has), greater than 0, at most the largest stake
 * ({@link Money.maxStakeMinor}) and within the merchant's [minimumStake,
 * maximumStake], narrowed by the shop's when the session is played at a shop
 * (CONTRACT §11), compared exactly in minor units. Anything else is
 * ValidationFailed naming `stake`, before any money moves or anything is stored.
 */
export const checkStake = (
  text: string,
  session: { readonly currency: CurrencyCode; readonly shop?: GameSession["shop"] },
  merchant: Merchant
): Result.Result<bigint, ValidationFailed> => {
  const parsed = Money.parse(text, session.currency)
  if (Result.isFailure(parsed)) return Result.fail(new ValidationFailed({ field: "stake", detail: parsed.failure.message }))
  const stake = parsed.success.minor
  const { minimumStake, maximumStake } = merchant.MerchantSettings
  const format = (minor: bigint) => Money.format(Money.make(minor, session.currency))
  const limit = (value: number) => stakeLimitMinor(value, session.currency)
  if (stake <= 0n) return Result.fail(new ValidationFailed({ field: "stake", detail: "must be greater than 0" }))
  const merchantMinimum = minimumStake === undefined ? undefined : limit(minimumStake)
  const shopMinimum = shopLimit(session.shop?.minimumStake, session)
  const minimum = shopMinimum === undefined || (merchantMinimum !== undefined && merchantMinimum > shopMinimum)
    ? merchantMinimum
    : shopMinimum
  if (minimum !== undefined && stake < minimum) {
    return Result.fail(new ValidationFailed({ field: "stake", detail: `must be at least ${format(minimum)}` }))
  }
  const merchantMaximum = maximumStake === undefined ? Money.maxStakeMinor : limit(maximumStake)
  const shopMaximum = shopLimit(session.shop?.maximumStake, session) ?? Money.maxStakeMinor
  const ownMaximum = shopMaximum < merchantMaximum ? shopMaximum : merchantMaximum
  const maximum = ownMaximum < Money.maxStakeMinor ? ownMaximum : Money.maxStakeMinor
  if (stake > maximum) {
    return Result.fail(new ValidationFailed({ field: "stake", detail: `must be at most ${format(maximum)}` }))
  }
  return Result.succeed(stake)
}

/**
 * The game a round plays and its rules: the launched game, or with the
 * lobby any built-in game, either still listed in the catalogue (an
 * in-memory lookup). Without the lobby another game is Forbidden; the
 * launched game or a built-in one no longer listed is GameRetired, another
 * unlisted game GameNotFound; a game without an engine is ValidationFailed
 * naming `gameId`.
 */
const gameOf = Effect.fnUntraced(function*(
  catalog: GameCatalog["Service"],
  session: GameSession,
  requested: string | undefined
) {
  const gameId = requested ?? session.gameId
  if (gameId !== session.gameId && !session.lobby) {
    return yield* new Forbidden({
      detail: `this session plays '${session.gameId}' only: the operator launched it without the lobby`
    })
  }
  const rules = Games.rulesOf(gameId)
  yield* catalog.find(gameId).pipe(
    Effect.catchTag("GameNotFound", (notFound): Effect.Effect<never, GameNotFound | GameRetired> =>
      gameId === session.gameId || rules !== undefined ? Effect.fail(new GameRetired({ gameId })) : Effect.fail(notFound))
  )
  if (rules === undefined) {
    return yield* new ValidationFailed({ field: "gameId", detail: `the game '${gameId.slice(0, 64)}' has no engine` })
  }
  return rules
})

/** The draw of a round: the game's rules on the bytes of its seeds, at the merchant's RTP. */
const draw = (
  fair: FairRandom["Service"],
  rules: Games.GameRules,
  selection: unknown,
  stake: bigint,
  seed: RoundSeed,
  rtpBp: number
) => rules.play(selection, stake, Draws.forRound(fair, seed.serverSeed, seed.clientSeed, seed.nonce), rtpBp)

type PlayRoundError =
  | SessionExpired
  | SessionEnded
  | AutoplayLimitReached
  | MerchantNotFound
  | GameNotFound
  | GameRetired
  | Forbidden
  | ValidationFailed
  | InsufficientFunds
  | BetRefused
  | WalletUnavailable
  | OperatorUnavailable
  | WebhookUrlNotSet
  | NoFreeRounds

/** The services a round uses. */
type PlayRoundServices = GameSessionRepo | MerchantRepo | GameCatalog | FairRandom | WalletClient | RoundLedger | Ids | FreeRounds

/**
 * Builds {@link playRound} once, with its services resolved: the function it returns needs none, so the bet
 * path (every bet of every player) looks no service up and adds nothing to the request's context.
 */
export const makePlayRound = Effect.gen(function*() {
  const sessions = yield* GameSessionRepo
  const merchants = yield* MerchantRepo
  const catalog = yield* GameCatalog
  const fair = yield* FairRandom
  const ids = yield* Ids
  const ledger = yield* RoundLedger
  const wallet = yield* WalletClient
  // Only what a free round uses, added to the request's context (nothing of it replaced).
  const freeRoundServices = Context.make(FreeRounds, yield* FreeRounds).pipe(
    Context.add(Ids, ids),
    Context.add(FairRandom, fair)
  )
  return Effect.fnUntraced(function*(sessionToken: string, request: PlayRequest): Effect.fn.Return<RoundResult, PlayRoundError> {
    // From memory when seen before: taking the round's nonce (nextSeed, or begin for real money), before anything is
    // stored or any money moves, checks that it is still live.
    const session = yield* sessions.recall(sessionToken)
    const merchant = yield* merchants.findById(session.merchantId)
    if (merchant.accountStatus !== "active") {
      return yield* new Forbidden({ detail: `merchant account is ${merchant.accountStatus}` })
    }
    const rules = yield* gameOf(catalog, session, request.gameId)
    const gameId = rules.id
    if (request.freeRound === true) {
      if (request.stake !== undefined) {
        return yield* new ValidationFailed({ field: "stake", detail: "must be left out of a free round: it plays its grant's stake" })
      }
      const selection = yield* Effect.fromResult(rules.decodeSelection(request.selection))
      return yield* playFreeRound(session, merchant, rules, selection).pipe(Effect.provideContext(freeRoundServices))
    }
    if (request.stake === undefined) {
      return yield* new ValidationFailed({ field: "stake", detail: "is required (unless freeRound is true)" })
    }
    const stake = yield* Effect.fromResult(checkStake(request.stake, session, merchant))
    const selection = yield* Effect.fromResult(rules.decodeSelection(request.selection))
    const selectionJson = JSON.stringify(selection)
    const autoplay = request.autoplay === true
    // The RTP in force when the session opened (a later change applies to later sessions only).
    const rtp = rtpInSession(session, gameId, merchant.MerchantSettings)
    const roundId = yield* ids.uuid
    const format = (minor: bigint) => Money.format(Money.make(minor, session.currency))

    if (session.mode === "demo") {
      if (autoplay) yield* sessions.takeAutoplayRound(session.id)
      const seed = yield* sessions.nextSeed(session.id)
      const fairness = commitmentOf(seed)
      const { outcome, payout } = draw(fair, rules, selection, stake, seed, rtp)
      const balance = yield* sessions.settleDemo(session.id, {
        roundId,
        gameId,
        stake,
        selection: selectionJson,
        outcome: JSON.stringify(outcome),
        payout,
        seed
      })
      if (autoplay) yield* sessions.countAutoplayLoss(session.id, stake - payout)
      return new RoundResult({ roundId, gameId, outcome, payout: format(payout), balance: format(balance), fairness })
    }

    if (webhookUrlFor(merchant.MerchantSettings, "transaction.debit") === undefined) return yield* new WebhookUrlNotSet()
    const transaction = (type: WalletTransaction["type"], transactionId: string, amount: bigint, roundClosed: boolean,
      refTransactionId?: string): WalletTransaction => ({
      type,
      transactionId,
      refTransactionId,
      roundId,
      roundClosed,
      merchantId: merchant.id,
      playerId: session.playerId,
      sessionId: session.operatorSessionId,
      gameId,
      amount: Money.make(amount, session.currency),
      ...(session.shop === undefined ? {} : { shopId: session.shop.shopId })
  })
  const debit = transaction("transaction.debit", yield* ids.uuid, stake, false)
  const booked = Effect.gen(function*() {
    // An autoplay round takes its autoplay round as it begins, and its loss is counted as it settles (RoundLedger).
    const seed = yield* ledger.begin({ roundId, sessionId: session.id, gameId, stake, selection: selectionJson, debit, autoplay })
    const accepted = yield* wallet.debit(merchant, debit).pipe(
      Effect.tapError((error) =>
        // Refused by the operator, or never sent (its circuit is open): nothing to refund.
        error._tag === "BetRefused" || error._tag === "OperatorUnavailable"
          ? ledger.refuse(roundId)
          : ids.uuid.pipe(
            Effect.flatMap((refundId) =>
              ledger.fail(roundId, transaction("transaction.refund", refundId, stake, true, debit.transactionId))
            )
          )
      )
    )
    const decided = draw(fair, rules, selection, stake, seed, rtp)
    const creditId = yield* ids.uuid
    const outcome = JSON.stringify(decided.outcome)
    yield* ledger.settle(
      roundId,
      outcome,
      decided.payout,
      transaction("transaction.credit", creditId, decided.payout, true, debit.transactionId),
      merchant.MerchantSettings.callbackUrl === undefined ? undefined : {
        roundId,
        session: sessionRefOf(session, gameId),
        stake,
        payout: decided.payout,
        selection: selectionJson,
        outcome
      }
    )
    return { accepted, decided, fairness: commitmentOf(seed) }
  })
  /* Once begun, a round is carried to its end even if the player's connection drops meanwhile. */
  const { accepted, decided, fairness } = yield* Effect.uninterruptible(booked)
  /* The operator's balance after the debit plus the payout, exactly, even when negative (a credit line) or finer than the currency. */
  const balance = Money.addToBalance(accepted.balance, decided.payout, session.currency) ?? accepted.balance
  return new RoundResult({
    roundId,
    gameId,
    outcome: decided.outcome,
    payout: format(decided.payout),
    balance,
    fairness
  })
  })
})

/**
 * Plays one round: the stake is debited synchronously from the operator's
 * wallet (demo sessions: from the virtual balance), the game draws from the
 * session's committed seeds and next nonce, and the credit — of the win, or
 * `0.00` to close a lost round — is queued in the same transaction as the
 * ledger. A refused debit, or one not sent because the operator's circuit
 * is open (OperatorUnavailable), sends nothing more; a debit with an unknown
 * outcome rejects the bet and queues its refund. A nonce taken by a round
 * that was then refused is not given again.
 */
export const playRound = (sessionToken: string, request: PlayRequest): Effect.Effect<RoundResult, PlayRoundError, PlayRoundServices> =>
  Effect.flatMap(makePlayRound, (play) => play(sessionToken, request))
