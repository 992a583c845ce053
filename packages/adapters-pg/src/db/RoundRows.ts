import type { WalletTransaction } from "@gateway/domain/Wallet"
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import * as Outbox from "./Outbox.ts"

const RoundRow = Schema.Struct({ stake_minor: Schema.BigInt, debit_id: Schema.String })
const decodeRounds = Schema.decodeUnknownEffect(Schema.Array(RoundRow))

type Status = "settled" | "refused" | "failed"

/**
 * Closes a round that is still `debiting`, under its row lock; any other
 * state is a defect (the round was closed already: a repeated call, or the
 * stale-debit sweep got there first), so nothing is ever booked twice.
 */
export const close = (
  sql: SqlClient,
  roundId: string,
  status: Status,
  outcome: string | null = null,
  payout: bigint | null = null
) =>
  sql`
    UPDATE rounds SET status = ${status}, outcome = ${outcome}, payout_minor = ${payout}, updated_at = now()
    WHERE id = ${roundId} AND status = 'debiting'
    RETURNING stake_minor, debit_id::text AS debit_id`.pipe(
    Effect.flatMap(decodeRounds),
    Effect.flatMap(([row]) =>
      row === undefined
        ? Effect.die(new Error(`round ${roundId} is not debiting: it was closed already or never begun`))
        : Effect.succeed(row)
    )
  )

/** Appends one ledger row; a transaction id booked before fails the transaction (unique). */
export const book = (sql: SqlClient, roundId: string, kind: "debit" | "credit" | "refund", transactionId: string,
  amountMinor: bigint, currency: string) =>
  sql`INSERT INTO ledger_entries (round_id, transaction_id, kind, amount_minor, currency)
    VALUES (${roundId}, ${transactionId}, ${kind}, ${amountMinor}, ${currency})`

/**
 * Settles a `debiting` round in one statement, so in one transaction and one
 * round trip: the round closed with its outcome and payout, its debit and
 * credit appended to the ledger (in that order) and the credit queued. A
 * round no longer `debiting` matches nothing and the statement writes
 * nothing: no row is returned.
 */
export const settleRound = (
  sql: SqlClient,
  roundId: string,
  outcome: string,
  payout: bigint,
  credit: WalletTransaction,
  message: Outbox.OutboxMessage
) =>
  sql<{ readonly id: string }>`
    WITH closed AS (
      UPDATE rounds SET status = 'settled', outcome = ${outcome}, payout_minor = ${payout}, updated_at = now()
      WHERE id = ${roundId} AND status = 'debiting'
      RETURNING id, stake_minor, debit_id
    ), booked AS (
      INSERT INTO ledger_entries (round_id, transaction_id, kind, amount_minor, currency)
      SELECT id, debit_id, 'debit', stake_minor, ${credit.amount.currency} FROM closed
      UNION ALL
      SELECT id, ${credit.transactionId}, 'credit', ${credit.amount.minor}, ${credit.amount.currency} FROM closed
    ), queued AS (
      INSERT INTO webhook_deliveries (id, merchant_id, type, body)
      SELECT ${message.id}, ${message.merchantId}, ${message.type}, ${message.body} FROM closed
    )
    SELECT id::text AS id FROM closed`

/**
 * Fails a locked `debiting` round: the refund in the ledger and queued, in
 * the caller's transaction.
 */
export const refundRound = (sql: SqlClient, roundId: string, refund: WalletTransaction) =>
  Effect.gen(function*() {
    yield* close(sql, roundId, "failed")
    yield* book(sql, roundId, "refund", refund.transactionId, refund.amount.minor, refund.amount.currency)
    yield* Outbox.enqueue(sql, yield* Outbox.ofTransaction(refund))
  })
