import type { PageRequest } from "@gateway/domain/Paging"
import { offset } from "@gateway/domain/Paging"
import type { GroupBy, SummaryFilter } from "@gateway/domain/Report"
import type { Array as Arr } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/** The SQL key of each grouping of the summary (rounds `r`, sessions `s`). */
export const groupKeys: Record<GroupBy, string> = {
  day: "to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
  game: "r.game_id",
  player: "s.player_id",
  shop: "coalesce(s.shop_id, '')"
}

/** Whether a summary reads the rounds' sessions: to group by player or shop, or to keep one shop's rounds. */
export const bySessions = (groupBy: GroupBy, filter: SummaryFilter): boolean =>
  groupBy === "player" || groupBy === "shop" || filter.shopId !== undefined

/**
 * The one query of the ledger's sums, behind both `summary` and `ggr` (exported for the tests that explain it): the
 * merchants' real rounds created in the range that moved money, grouped by `key` (SQL over `r`, and `s` when
 * `bySession`). Each round carries the sums of its own ledger entries in its merchant's currency (`ledger_*`, kept
 * by the database from the ledger: migration 0010), so a period is one index-only scan of
 * rounds_merchant_created_idx per merchant of the VALUES list, and the ledger itself is not read; a currency asked
 * that is not the merchant's (it never changes) finds no rounds, as it found no entries before. A failed round's
 * debit is not in the ledger (its outcome is unknown); its refund reverses it, so the refund counts as that round's
 * bet too, and the round nets to zero. A round without entries in the currency moved no money and is left out. The
 * sessions are joined only to group by player or shop, or to keep one shop's rounds (`range.shopId`). Sums are `numeric`, read as text: exact whatever their size. A free
 * round's win (migration 0019, CONTRACT §13) is the only credit of a round with neither a debit nor a refund:
 * `free_wins` sums those from the same columns of the same index.
 */
export const sumsStatement = (
  sql: SqlClient,
  merchants: Arr.NonEmptyReadonlyArray<{ readonly id: number; readonly currency: string }>,
  range: SummaryFilter,
  key: string,
  bySession: boolean
) => sql`${groupedSums(sql, merchants, range, key, bySession, true)} ORDER BY ${sql.literal(key)} COLLATE "C"`

const groupedSums = (
  sql: SqlClient,
  merchants: Arr.NonEmptyReadonlyArray<{ readonly id: number; readonly currency: string }>,
  range: SummaryFilter,
  key: string,
  bySession: boolean,
  asText: boolean
) => {
  const cast = asText ? sql`::text` : sql``
  return sql`
    SELECT ${sql.literal(key)} AS key, count(*)::float8 AS rounds,
      (sum(r.ledger_debit_minor) + sum(CASE WHEN r.ledger_debit_minor = 0 THEN r.ledger_refund_minor ELSE 0 END))${cast}
        AS bets,
      sum(r.ledger_credit_minor)${cast} AS wins, sum(r.ledger_refund_minor)${cast} AS refunds,
      sum(CASE WHEN r.ledger_debit_minor = 0 AND r.ledger_refund_minor = 0 THEN r.ledger_credit_minor ELSE 0 END)${cast}
        AS free_wins
    FROM (VALUES ${sql.csv(merchants.map((m) => sql`(${m.id}::integer, ${m.currency}::text)`))}) m (id, currency)
    JOIN merchants mc ON mc.id = m.id AND mc.currency = m.currency
    JOIN rounds r ON r.merchant_id = m.id
    ${bySession ? sql`JOIN game_sessions s ON s.id = r.session_id` : sql``}
    WHERE r.mode = 'real' AND r.ledger_entries > 0
      AND r.created_at >= ${range.from} AND r.created_at < ${range.to}
      ${bySession && range.shopId !== undefined ? sql`AND s.shop_id = ${range.shopId}` : sql``}
    GROUP BY 1`
}

/**
 * One page of the summary's groups in key order (bytewise, `COLLATE "C"`: the same on every database) with the
 * number of groups and the sums of the whole period, in one statement: the groups are built once in the database
 * (spilling to disk past `work_mem`, never into the gateway's memory), and only the page leaves it. The totals row
 * is there even when the page is past the end.
 */
export const summaryPageStatement = (
  sql: SqlClient,
  merchant: { readonly id: number; readonly currency: string },
  range: SummaryFilter,
  key: string,
  bySession: boolean,
  page: PageRequest
) =>
  sql`
    WITH g AS MATERIALIZED (${groupedSums(sql, [merchant], range, key, bySession, false)}),
    t AS (
      SELECT count(*)::float8 AS groups, coalesce(sum(rounds), 0)::float8 AS total_rounds,
        coalesce(sum(bets), 0)::text AS total_bets, coalesce(sum(wins), 0)::text AS total_wins,
        coalesce(sum(refunds), 0)::text AS total_refunds, coalesce(sum(free_wins), 0)::text AS total_free_wins
      FROM g
    )
    SELECT t.*, p.key, p.rounds, p.bets::text AS bets, p.wins::text AS wins, p.refunds::text AS refunds,
      p.free_wins::text AS free_wins
    FROM t LEFT JOIN LATERAL (
      SELECT * FROM g ORDER BY key COLLATE "C" LIMIT ${page.limit} OFFSET ${offset(page)}
    ) p ON true
    ORDER BY p.key COLLATE "C"`

/** Groups read per `FETCH` of {@link Reports.summaryStream}. */
export const summaryBatch = 1000
