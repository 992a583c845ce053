import { Effect } from "effect"
import { commitmentOf } from "../Fairness.ts"
import { NoFreeRounds } from "../FreeRound.ts"
import type { GameSession } from "../GameSession.ts"
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
 * `refTransactionId`, queued with the round; a loss sends nothing. A demo session has no free rounds.
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
  const rtp = Games.rtpFor(gameId, merchant.MerchantSettings)
  const { decision, seed, taken } = yield* (yield* FreeRounds).play({
    roundId,
    sessionId: session.id,
    merchantId: merchant.id,
    playerId: session.playerId,
    gameId,
    selection: JSON.stringify(selection)
  }, (seed, taken) => {
    const { outcome, payout } = rules.play(
      selection,
      taken.stake,
      Draws.forRound(fair, seed.serverSeed, seed.clientSeed, seed.nonce),
      rtp
    )
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
      freeRound: { campaignId: taken.campaignId, grantId: taken.grantId }
    }
    return { outcome, outcomeJson: JSON.stringify(outcome), payout, credit }
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
