import type { LaunchMode } from "@gateway/domain/LaunchToken"
import { MerchantId } from "@gateway/domain/Merchant"
import * as Money from "@gateway/domain/Money"
import type { SessionSeed } from "@gateway/domain/Fairness"
import type { GameSession } from "@gateway/domain/GameSession"
import type { DemoRound } from "@gateway/domain/ports/GameSessionRepo"
import { RoundLedger } from "@gateway/domain/ports/RoundLedger"
import { GameSessionRepo } from "@gateway/domain/ports/GameSessionRepo"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { makeClaims } from "@gateway/domain/testing"
import type { WalletTransaction } from "@gateway/domain/Wallet"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { createHash, randomBytes, randomUUID } from "node:crypto"
import * as DataCipher from "../src/db/DataCipher.ts"
import * as DeliveryQueuePg from "../src/DeliveryQueuePg.ts"
import * as GameSessionRepoPg from "../src/GameSessionRepoPg.ts"
import * as MerchantRepoPg from "../src/MerchantRepoPg.ts"
import * as PgTest from "../testing/PgTest.ts"
import * as RoundLedgerPg from "../src/RoundLedgerPg.ts"
import { newMerchant } from "./fixtures.ts"

export const idleSeconds = 1800

/**
 * The wallet adapters on a migrated database of this test file, plus the
 * merchants and the SqlClient / PgClient for raw checks. The fallback tick of
 * the queue is an hour, so a wakeup within a test comes from NOTIFY.
 */
export const walletLayer = Layer.mergeAll(
  GameSessionRepoPg.layer({ idleSeconds }),
  RoundLedgerPg.layer,
  DeliveryQueuePg.layer({ pollInterval: "1 hour" }),
  MerchantRepoPg.layer
).pipe(
  Layer.provideMerge(DataCipher.layer(Redacted.make(randomBytes(32)))),
  Layer.provideMerge(PgTest.layer)
)

/** A new merchant (a unique e-mail each time). */
export const merchant = Effect.gen(function*() {
  return yield* (yield* MerchantRepo).create(newMerchant(`${randomUUID()}@wallet.example`))
}).pipe(Effect.orDie)

/** Launch claims of a merchant with a fresh jti. */
export const claimsOf = (merchantId: number, mode: LaunchMode = "real", jti: string = randomUUID()) =>
  makeClaims({ mid: MerchantId.make(merchantId), mode, jti, sub: "player-1", sid: "op-session-1" })

/** Fresh seeds, as the domain makes them: a random server seed, its SHA-256 (hex) and a client seed. */
export const seedOf = (clientSeed = "client-1"): SessionSeed => {
  const serverSeed = randomBytes(32).toString("hex")
  return { serverSeed, serverSeedHash: createHash("sha256").update(serverSeed).digest("hex"), clientSeed }
}

/** A settled demo round of `stake` paying `payout`, drawn from a made-up seed. */
export const demoRound = (stake: bigint, payout: bigint): DemoRound => ({
  roundId: randomUUID(),
  gameId: "odd-even",
  stake,
  selection: JSON.stringify("odd"),
  outcome: JSON.stringify({ number: 1, parity: "odd", summary: "1 odd" }),
  payout,
  seed: { ...seedOf(), nonce: 0 }
})

/** A session opened on a new merchant. */
export const openSession = (mode: LaunchMode = "real", demoBalance = 0n) =>
  Effect.gen(function*() {
    const m = yield* merchant
    const opened = yield* (yield* GameSessionRepo).open(claimsOf(m.id, mode), demoBalance, seedOf()).pipe(Effect.orDie)
    return { merchant: m, ...opened }
  })

/** A wallet transaction of a session's round, in ETB. */
export const transaction = (
  session: { readonly merchantId: number; readonly playerId: string; readonly operatorSessionId: string; readonly gameId: string },
  type: WalletTransaction["type"],
  roundId: string,
  amount: bigint,
  refTransactionId?: string
): WalletTransaction => ({
  type,
  transactionId: randomUUID(),
  refTransactionId,
  roundId,
  roundClosed: type !== "transaction.debit",
  merchantId: session.merchantId,
  playerId: session.playerId,
  sessionId: session.operatorSessionId,
  gameId: session.gameId,
  amount: Money.make(amount, "ETB")
})

/** A game session of merchant `m` for player `sub` (real: balance from the Details URL, here 0; demo: 10,000). */
export const sessionOf = (m: { readonly id: MerchantId }, sub: string, sid: string, mode: LaunchMode = "real") =>
  Effect.gen(function*() {
    const claims = makeClaims({ mid: m.id, mode, jti: randomUUID(), sub, sid })
    return (yield* (yield* GameSessionRepo).open(claims, mode === "demo" ? 10_000n : 0n, seedOf()).pipe(Effect.orDie)).session
  })

/**
 * A real round of `stake` begun through the ledger and closed by `close`
 * (settled paying `payout`, failed and refunded, refused, or left debiting
 * when `undefined`), moved to `at` when given: its id and transactions.
 */
export const realRound = (
  session: GameSession,
  stake: bigint,
  close: "settle" | "fail" | "refuse" | undefined,
  payout = 0n,
  at?: Date
) =>
  Effect.gen(function*() {
    const ledger = yield* RoundLedger
    const roundId = randomUUID()
    const debit = transaction(session, "transaction.debit", roundId, stake)
    yield* ledger.begin({
      roundId,
      sessionId: session.id,
      gameId: session.gameId,
      stake,
      selection: JSON.stringify("odd"),
      debit
    })
    const credit = transaction(session, "transaction.credit", roundId, payout, debit.transactionId)
    const refund = transaction(session, "transaction.refund", roundId, stake, debit.transactionId)
    if (close === "settle") yield* ledger.settle(roundId, JSON.stringify({ summary: "1 odd" }), payout, credit)
    if (close === "fail") yield* ledger.fail(roundId, refund)
    if (close === "refuse") yield* ledger.refuse(roundId)
    if (at !== undefined) yield* (yield* SqlClient)`UPDATE rounds SET created_at = ${at} WHERE id = ${roundId}`
    return { roundId, debit, credit, refund }
  })
