import { Effect, Result } from "effect"
import { Forbidden } from "../Auth.ts"
import type { GameSession, SessionExpired } from "../GameSession.ts"
import type { Merchant, MerchantNotFound } from "../Merchant.ts"
import { stakeLimitMinor } from "../MerchantSettings.ts"
import * as Money from "../Money.ts"
import { GameEngine } from "../ports/GameEngine.ts"
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

/**
 * The stake in minor units: an amount of the session's currency (no more
 * fraction digits than it has), greater than 0, at most the largest stake
 * ({@link Money.maxStakeMinor}) and within the merchant's [minimumStake,
 * maximumStake], compared exactly in minor units. Anything else is
 * ValidationFailed naming `stake`, before any money moves or anything is stored.
 */
export const checkStake = (
  text: string,
  session: GameSession,
  merchant: Merchant
): Result.Result<bigint, ValidationFailed> => {
  const parsed = Money.parse(text, session.currency)
  if (Result.isFailure(parsed)) return Result.fail(new ValidationFailed({ field: "stake", detail: parsed.failure.message }))
  const stake = parsed.success.minor
  const { minimumStake, maximumStake } = merchant.MerchantSettings
  const format = (minor: bigint) => Money.format(Money.make(minor, session.currency))
  const limit = (value: number) => stakeLimitMinor(value, session.currency)
  if (stake <= 0n) return Result.fail(new ValidationFailed({ field: "stake", detail: "must be greater than 0" }))
  const minimum = minimumStake === undefined ? undefined : limit(minimumStake)
  if (minimum !== undefined && stake < minimum) {
    return Result.fail(new ValidationFailed({ field: "stake", detail: `must be at least ${format(minimum)}` }))
  }
  const ownMaximum = maximumStake === undefined ? Money.maxStakeMinor : limit(maximumStake)
  const maximum = ownMaximum < Money.maxStakeMinor ? ownMaximum : Money.maxStakeMinor
  if (stake > maximum) {
    return Result.fail(new ValidationFailed({ field: "stake", detail: `must be at most ${format(maximum)}` }))
  }
  return Result.succeed(stake)
}

/**
 * Plays one round: the stake is debited synchronously from the operator's
 * wallet (demo sessions: from the virtual balance), the engine decides, and
 * the credit — of the win, or `0.00` to close a lost round — is queued in the
 * same transaction as the ledger. A refused debit sends nothing more; a debit
 * with an unknown outcome rejects the bet and queues its refund.
 */
export const playRound = Effect.fn("playRound")(function*(
  sessionToken: string,
  request: PlayRequest
): Effect.fn.Return<
  RoundResult,
  | SessionExpired
  | MerchantNotFound
  | Forbidden
  | ValidationFailed
  | InsufficientFunds
  | BetRefused
  | WalletUnavailable
  | WebhookUrlNotSet,
  GameSessionRepo | MerchantRepo | GameEngine | WalletClient | RoundLedger | Ids
> {
  const sessions = yield* GameSessionRepo
  const session = yield* sessions.authenticate(sessionToken)
  const merchant = yield* (yield* MerchantRepo).findById(session.merchantId)
  if (merchant.accountStatus !== "active") {
    return yield* new Forbidden({ detail: `merchant account is ${merchant.accountStatus}` })
  }
  const stake = yield* Effect.fromResult(checkStake(request.stake, session, merchant))
  const engine = yield* GameEngine
  yield* engine.validate(session.gameId, request.selection)
  const ids = yield* Ids
  const roundId = yield* ids.uuid
  const format = (minor: bigint) => Money.format(Money.make(minor, session.currency))

  if (session.mode === "demo") {
    const outcome = yield* engine.play(session.gameId, request.selection, stake)
    const balance = yield* sessions.settleDemo(session.id, stake, outcome.payout)
    return new RoundResult({ roundId, outcome: outcome.outcome, payout: format(outcome.payout), balance: format(balance) })
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
    gameId: session.gameId,
    amount: Money.make(amount, session.currency)
  })
  const debit = transaction("transaction.debit", yield* ids.uuid, stake, false)
  const ledger = yield* RoundLedger
  const wallet = yield* WalletClient
  const booked = Effect.gen(function*() {
    yield* ledger.begin({ roundId, sessionId: session.id, stake, selection: request.selection, debit })
    const accepted = yield* wallet.debit(merchant, debit).pipe(
      Effect.tapError((error) =>
        error._tag === "BetRefused"
          ? ledger.refuse(roundId)
          : ids.uuid.pipe(
            Effect.flatMap((refundId) =>
              ledger.fail(roundId, transaction("transaction.refund", refundId, stake, true, debit.transactionId))
            )
          )
      )
    )
    const outcome = yield* engine.play(session.gameId, request.selection, stake)
    const creditId = yield* ids.uuid
    yield* ledger.settle(
      roundId,
      outcome.outcome,
      outcome.payout,
      transaction("transaction.credit", creditId, outcome.payout, true, debit.transactionId)
    )
    return { accepted, outcome }
  })
  /* Once begun, a round is carried to its end even if the player's connection drops meanwhile. */
  const { accepted, outcome } = yield* Effect.uninterruptible(booked)
  const after = Money.parse(accepted.balance, session.currency)
  const balance = Result.isSuccess(after) ? format(after.success.minor + outcome.payout) : accepted.balance
  return new RoundResult({ roundId, outcome: outcome.outcome, payout: format(outcome.payout), balance })
})
