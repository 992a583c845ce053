import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * A round's ledger sums (0010) set to what its ledger holds, rather than added to: the trigger recomputes the
 * sums of each round a statement booked from the round's entries (in its merchant's currency), and writes only
 * the rounds whose sums differ. A settlement that already wrote the sums it books in its own `UPDATE` of the
 * round (`db/RoundRows.ts`, `settleRound`) then costs the round one new row version instead of two (each one
 * a new entry in every index of `rounds`: issue 22), and the sums still cannot drift from the ledger, whoever
 * books: the trigger corrects any round whose sums were not, or not rightly, written by its booking.
 *
 * The round row is locked by every booking before its entries are written (it is closed or failed in the same
 * statement or transaction), so the entries read here are all the round has.
 */
export const m0014_round_sums_once = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE OR REPLACE FUNCTION ledger_entries_round_sums() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE rounds r SET
        ledger_debit_minor = t.debits,
        ledger_credit_minor = t.credits,
        ledger_refund_minor = t.refunds,
        ledger_entries = t.entries
      FROM (
        SELECT l.round_id, count(*) AS entries,
          coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'debit'), 0) AS debits,
          coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'credit'), 0) AS credits,
          coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'refund'), 0) AS refunds
        FROM ledger_entries l
        JOIN rounds o ON o.id = l.round_id
        JOIN merchants m ON m.id = o.merchant_id AND m.currency = l.currency
        WHERE l.round_id IN (SELECT n.round_id FROM new_entries n)
        GROUP BY l.round_id
      ) t
      WHERE r.id = t.round_id
        AND (r.ledger_debit_minor, r.ledger_credit_minor, r.ledger_refund_minor, r.ledger_entries)
          IS DISTINCT FROM (t.debits, t.credits, t.refunds, t.entries::integer);
      RETURN NULL;
    END
    $$`
})
