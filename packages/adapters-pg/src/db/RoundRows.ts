import type { PendingRound } from "@gateway/domain/ports/RoundLedger"
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

/** The seeds a round draws from, as {@link beginRounds} reads them (its own statement's columns, not decoded). */
export interface SeedRow {
  readonly round_id: string
  readonly server_seed: string
  readonly server_seed_hash: string
  readonly client_seed: string
  readonly nonce: number
}

/**
 * Begins real rounds in one statement, so in one transaction and one round
 * trip: for each, its session's next nonce taken (the session's row locked)
 * — and for an autoplay round one of the session's autoplay rounds, while it
 * has one left and is within its loss limit — and the round recorded as
 * `debiting` with its debit and the seeds it draws from, before the debit is
 * sent. At most one round per session: a session twice would take one nonce
 * for two rounds. A round whose session has ended, or whose autoplay has
 * nothing left, is not written and has no row in the answer.
 */
export const beginRounds = (sql: SqlClient, rounds: ReadonlyArray<PendingRound>) =>
  sql<SeedRow>`
    WITH input AS (
      SELECT * FROM unnest(
        ${rounds.map((r) => r.roundId)}::uuid[], ${rounds.map((r) => r.sessionId)}::uuid[],
        ${rounds.map((r) => r.debit.merchantId)}::integer[], ${rounds.map((r) => r.gameId)}::text[],
        ${rounds.map((r) => String(r.stake))}::bigint[], ${rounds.map((r) => r.selection)}::text[],
        ${rounds.map((r) => r.debit.transactionId)}::uuid[], ${rounds.map((r) => r.autoplay === true)}::boolean[]
      ) AS i (round_id, session_id, merchant_id, game_id, stake_minor, selection, debit_id, autoplay)
    ), seed AS (
      UPDATE game_sessions s SET nonce = s.nonce + 1,
        autoplay_left = CASE WHEN i.autoplay THEN s.autoplay_left - 1 ELSE s.autoplay_left END
      FROM input i
      -- A session is found by its primary key, whatever the statistics say: "+ interval '0'" keeps the
      -- planner off the index of expiries (every live session, read and hashed for each batch).
      WHERE s.id = i.session_id AND s.expires_at + interval '0' > now()
        AND (NOT i.autoplay OR (s.autoplay_left > 0 AND s.autoplay_lost_minor < s.autoplay_loss_limit_minor))
      RETURNING i.round_id, s.server_seed, s.server_seed_hash, s.client_seed, s.nonce - 1 AS nonce
    ), begun AS (
      INSERT INTO rounds (id, session_id, merchant_id, game_id, mode, stake_minor, selection, status, debit_id,
        server_seed_hash, client_seed, nonce, autoplay)
      SELECT i.round_id, i.session_id, i.merchant_id, i.game_id, 'real', i.stake_minor, i.selection, 'debiting',
        i.debit_id, seed.server_seed_hash, seed.client_seed, seed.nonce, i.autoplay
      FROM input i JOIN seed ON seed.round_id = i.round_id
    )
    SELECT round_id::text AS round_id, server_seed, server_seed_hash, client_seed, nonce::float8 AS nonce FROM seed`

/** A round whose debit was accepted, to settle: its outcome, payout and credit, and the credit's message. */
export interface SettlingRound {
  readonly roundId: string
  readonly outcome: string
  readonly payout: bigint
  readonly credit: WalletTransaction
  readonly message: Outbox.OutboxMessage
  /** The round's `round.settled` callback, when its merchant has a `callbackUrl`: queued with the credit (else `""` in the statement: an array of nulls has no type). */
  readonly callback: Outbox.OutboxMessage | undefined
  /** Queue the message already leased to this process for this long (`db/Handoff.ts`); else (or 0) unleased. */
  readonly leaseSeconds: number | undefined
}

/**
 * Settles `debiting` rounds in one statement, so in one transaction and one
 * round trip: each round closed with its outcome and payout and the sums its
 * ledger will hold (so the ledger's trigger, migration 0014, finds them right
 * and writes no second version of the round), its debit and credit appended
 * to the ledger (each round's debit before its credit) and the credit queued
 * — leased to this process when it has `leaseSeconds`, its first attempt
 * counted — and its `round.settled` callback beside it when it has one. A
 * round no longer `debiting` matches nothing and writes nothing: the answer
 * holds the ids of the rounds settled.
 */
export const settleRounds = (sql: SqlClient, rounds: ReadonlyArray<SettlingRound>) =>
  sql<{ readonly id: string }>`
    WITH input AS (
      SELECT * FROM unnest(
        ${rounds.map((r) => r.roundId)}::uuid[], ${rounds.map((r) => r.outcome)}::text[],
        ${rounds.map((r) => String(r.payout))}::bigint[], ${rounds.map((r) => r.credit.transactionId)}::uuid[],
        ${rounds.map((r) => r.credit.amount.currency)}::text[], ${rounds.map((r) => r.message.id)}::text[],
        ${rounds.map((r) => r.message.merchantId)}::integer[], ${rounds.map((r) => r.message.type)}::text[],
        ${rounds.map((r) => r.message.body)}::text[], ${rounds.map((r) => r.leaseSeconds ?? 0)}::float8[],
        ${rounds.map((r) => r.callback?.id ?? "")}::text[], ${rounds.map((r) => r.callback?.body ?? "")}::text[]
      ) AS i (round_id, outcome, payout_minor, credit_id, currency, message_id, merchant_id, type, body, lease_seconds,
        callback_id, callback_body)
    ), closed AS (
      UPDATE rounds r SET status = 'settled', outcome = i.outcome, payout_minor = i.payout_minor, updated_at = now(),
        ledger_debit_minor = r.ledger_debit_minor + r.stake_minor,
        ledger_credit_minor = r.ledger_credit_minor + i.payout_minor,
        ledger_entries = r.ledger_entries + 2
      FROM input i
      -- "debiting", said so that the planner cannot use the partial index of debiting rounds: unvacuumed, it
      -- holds an entry for every round begun since the last vacuum, and the generic plan of this statement
      -- scanned it whole (a bitmap of all of them, hashed against the batch): slower with every round played.
      -- A round is found by its primary key. (status takes only the four values of its CHECK.)
      WHERE r.id = i.round_id AND r.status NOT IN ('settled', 'refused', 'failed')
      RETURNING r.id, r.session_id, r.autoplay, r.stake_minor, r.debit_id, i.payout_minor, i.credit_id, i.currency,
        i.message_id, i.merchant_id, i.type, i.body, i.lease_seconds, i.callback_id, i.callback_body
    ), lost AS (
      -- Summed per session: two rounds of one session in a batch would otherwise update its row once.
      UPDATE game_sessions s
      SET autoplay_lost_minor = greatest(s.autoplay_lost_minor::numeric + l.loss, -1e18)::bigint
      FROM (SELECT session_id, sum(stake_minor - payout_minor) AS loss FROM closed WHERE autoplay GROUP BY session_id) l
      WHERE s.id = l.session_id AND s.autoplay_lost_minor IS NOT NULL
    ), booked AS (
      INSERT INTO ledger_entries (round_id, transaction_id, kind, amount_minor, currency)
      SELECT id, transaction_id, kind, amount_minor, currency FROM (
        SELECT id, debit_id AS transaction_id, 'debit' AS kind, stake_minor AS amount_minor, currency, 0 AS position
        FROM closed
        UNION ALL
        SELECT id, credit_id, 'credit', payout_minor, currency, 1 FROM closed
      ) entries
      ORDER BY id, position
    ), queued AS (
      INSERT INTO webhook_deliveries (id, merchant_id, type, body, lease_until, attempts)
      SELECT message_id, merchant_id, type, body,
        CASE WHEN lease_seconds > 0 THEN now() + make_interval(secs => lease_seconds) END,
        CASE WHEN lease_seconds > 0 THEN 1 ELSE 0 END
      FROM closed
      UNION ALL
      SELECT callback_id, merchant_id, 'round.settled', callback_body,
        CASE WHEN lease_seconds > 0 THEN now() + make_interval(secs => lease_seconds) END,
        CASE WHEN lease_seconds > 0 THEN 1 ELSE 0 END
      FROM closed WHERE callback_id <> ''
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
