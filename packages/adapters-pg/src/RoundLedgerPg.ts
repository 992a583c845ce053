import type { PendingRound } from "@gateway/domain/ports/RoundLedger"
import { RoundLedger } from "@gateway/domain/ports/RoundLedger"
import type { WalletTransaction } from "@gateway/domain/Wallet"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as Outbox from "./db/Outbox.ts"
import { book, close, refundRound } from "./db/RoundRows.ts"

/**
 * {@link RoundLedger} on PostgreSQL: `rounds`, the append-only
 * `ledger_entries`, and the outbox `webhook_deliveries`, each money movement
 * in one transaction with the message it causes. A repeated `settle`,
 * `refuse` or `fail` of a round is a defect and books nothing: the round is
 * no longer `debiting` and the transaction ids are unique in the ledger and
 * the outbox.
 */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient

  const begin = Effect.fn("RoundLedger.begin")(function*(round: PendingRound) {
    if (round.debit.roundId !== round.roundId) return yield* Effect.die(new Error("the debit is of another round"))
    yield* sql`
      INSERT INTO rounds (id, session_id, merchant_id, stake_minor, selection, status, debit_id)
      VALUES (${round.roundId}, ${round.sessionId}, ${round.debit.merchantId}, ${round.stake}, ${round.selection},
        'debiting', ${round.debit.transactionId})`
  }, Effect.catchTag("SqlError", Effect.die))

  const settle = Effect.fn("RoundLedger.settle")(function*(
    roundId: string,
    outcome: string,
    payout: bigint,
    credit: WalletTransaction
  ) {
    if (credit.roundId !== roundId) return yield* Effect.die(new Error("the credit is of another round"))
    const message = yield* Outbox.ofTransaction(credit)
    const currency = credit.amount.currency
    yield* sql.withTransaction(Effect.gen(function*() {
      const round = yield* close(sql, roundId, "settled", outcome, payout)
      yield* book(sql, roundId, "debit", round.debit_id, round.stake_minor, currency)
      yield* book(sql, roundId, "credit", credit.transactionId, credit.amount.minor, currency)
      yield* Outbox.enqueue(sql, message)
    }))
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const refuse = Effect.fn("RoundLedger.refuse")(function*(roundId: string) {
    yield* close(sql, roundId, "refused")
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  const fail = Effect.fn("RoundLedger.fail")(function*(roundId: string, refund: WalletTransaction) {
    if (refund.roundId !== roundId) return yield* Effect.die(new Error("the refund is of another round"))
    yield* sql.withTransaction(refundRound(sql, roundId, refund))
  }, Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }))

  return RoundLedger.of({ begin, settle, refuse, fail })
})

/** The ledger on the database of the `SqlClient`. */
export const layer: Layer.Layer<RoundLedger, never, SqlClient> = Layer.effect(RoundLedger, make)

