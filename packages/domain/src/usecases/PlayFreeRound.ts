import { Effect } from "effect"
import { sessionRefOf, type SettledRound } from "../Callback.ts"
import { commitmentOf } from "../Fairness.ts"
import { NoFreeRounds } from "../FreeRound.ts"
import { type GameSession, rtpInSession } from "../GameSession.ts"
import * as Draws from "../games/Draws.ts"
import * as Games from "../games/Games.ts"
import type { Merchant } from "../Merchant.ts"
import * as Money from "../Money.ts"
import { FairRandom } from "../ports/FairRandom.ts"
import { FreeRounds } from "../ports/FreeRounds.ts"
import { Ids } from "../ports/Ids.ts"
import { RoundResult } from "../Round.ts"
import { webhookUrlFor, WebhookUrlNotSet } from "../Wallet.ts"

/**
 * Plays one of the session's player's free rounds of a game (CONTRACT §13): taken from the grant that expires
 * first, at its stake, in the same transaction that records the round, so a grant is never played more often
 * than it gives. No debit is sent; a win is a credit with `freeRound: {campaignId, grantId}` and no
 * `refTransactionId`, queued with the round; a loss sends nothing. With a `callbackUrl`, the round's
 * `round.settled` is queued with it, win or loss (CONTRACT §10). A demo session has no free rounds.
 */
export const playFreeRound = Effect.fnUntraced(function*(
  session: GameSession,
  merchant: Merchant,
  rules: Games.GameRules,
  selection: unknown
) {
  if (session.mode === "demo") return yield* new NoFreeRounds()
  if (webhookUrlFor(merchant.MerchantSettings, "transaction.credit") === undefined) return yield* new WebhookUrlNotSet()
  const ids = yield* Ids
  const fair = yield* FairRandom
  const roundId = yield* ids.uuid
  const creditId = yield* ids.uuid
  const gameId = rules.id
  const selectionJson = JSON.stringify(selection)
  const rtp = rtpInSession(session, gameId, merchant.MerchantSettings)
  const { decision, seed, taken } = yield* (yield* FreeRounds).play({
    roundId,
    sessionId: session.id,
    merchantId: merchant.id,
    playerId: session.playerId,
    gameId,
    selection: selectionJson
  }, (seed, taken) => {
    const { outcome, payout } = rules.play(
      selection,
      taken.stake,
      Draws.forRound(fair, seed.serverSeed, seed.clientSeed, seed.nonce),
      rtp
    )
    const outcomeJson = JSON.stringify(outcome)
    const credit = payout <= 0n ? undefined : {
      type: "transaction.credit" as const,
      transactionId: creditId,
      roundId,
      roundClosed: true,
      merchantId: merchant.id,
      playerId: session.playerId,
      sessionId: session.operatorSessionId,
      gameId,
      amount: Money.make(payout, session.currency),
      ...(session.shop === undefined ? {} : { shopId: session.shop.shopId }),
      freeRound: { campaignId: taken.campaignId, grantId: taken.grantId }
    }
    const reported: SettledRound | undefined = merchant.MerchantSettings.callbackUrl === undefined ? undefined : {
      roundId,
      session: sessionRefOf(session, gameId),
      stake: taken.stake,
      payout,
      selection: selectionJson,
      outcome: outcomeJson,
      freeRound: { campaignId: taken.campaignId, grantId: taken.grantId }
    }
    return { outcome, outcomeJson, payout, credit, reported }
  })
  return new RoundResult({
    roundId,
    gameId,
    outcome: decision.outcome,
    payout: Money.format(Money.make(decision.payout, session.currency)),
    fairness: commitmentOf(seed),
    freeRound: { grantId: taken.grantId, campaignId: taken.campaignId, remaining: taken.remaining }
  })
})
