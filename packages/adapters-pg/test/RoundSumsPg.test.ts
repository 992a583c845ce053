import { assert, describe, layer } from "@effect/vitest"
import type { GameSession } from "@gateway/domain/GameSession"
import type { Merchant } from "@gateway/domain/Merchant"
import type { GroupBy } from "@gateway/domain/Report"
import { maxStakeMinor } from "@gateway/domain/Money"
import { GameSessionRepo } from "@gateway/domain/ports/GameSessionRepo"
import { Reports } from "@gateway/domain/ports/Reports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import * as ReportsPg from "../src/ReportsPg.ts"
import { demoRound, merchant, realRound, sessionOf, walletLayer } from "./walletFixtures.ts"

const testLayer = ReportsPg.layer.pipe(Layer.provideMerge(walletLayer))

const range = { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-03-03T00:00:00Z") }
const bigintMax = 9_223_372_036_854_775_807n

/** A real round closed by `close`: its id. */
const round = (session: GameSession, stake: bigint, close: "settle" | "fail" | "refuse" | undefined, payout = 0n) =>
  Effect.map(realRound(session, stake, close, payout), ({ roundId }) => roundId)

const sessionFor = (m: Merchant, sub: string, mode: "real" | "demo" = "real") => sessionOf(m, sub, `op-${sub}`, mode)

/** Each round's columns as text: debit, credit, refund, entries. */
const sumsOf = (roundIds: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql<{ readonly id: string; readonly sums: string }>`
      SELECT id::text AS id,
        concat_ws(' ', ledger_debit_minor, ledger_credit_minor, ledger_refund_minor, ledger_entries) AS sums
      FROM rounds WHERE id IN ${sql.in(roundIds)}`
    return roundIds.map((id) => rows.find((row) => row.id === id)?.sums)
  })

/** Round `r`'s entries in its merchant's (`m`) currency, summed from the ledger itself: `t.entries`, `t.debits`, `t.credits`, `t.refunds`. */
const ledgerOfRound = `CROSS JOIN LATERAL (
  SELECT count(*) AS entries,
    coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'debit'), 0) AS debits,
    coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'credit'), 0) AS credits,
    coalesce(sum(l.amount_minor) FILTER (WHERE l.kind = 'refund'), 0) AS refunds
  FROM ledger_entries l WHERE l.round_id = r.id AND l.currency = m.currency
) t`

/** The rounds whose columns are not the sums of their ledger entries in their merchant's currency. */
const disagreeing = Effect.gen(function*() {
  const sql = yield* SqlClient
  return yield* sql<{ readonly id: string }>`
    SELECT r.id::text AS id FROM rounds r JOIN merchants m ON m.id = r.merchant_id
    ${sql.literal(ledgerOfRound)}
    WHERE (r.ledger_debit_minor, r.ledger_credit_minor, r.ledger_refund_minor, r.ledger_entries)
      IS DISTINCT FROM (t.debits, t.credits, t.refunds, t.entries::integer)`
})

/** The summary as the ledger gives it, summed entry by entry (the query before migration 0010): the oracle. */
const fromLedger = (merchantId: number, groupBy: GroupBy) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    return yield* sql<{ readonly key: string; readonly rounds: number; readonly bets: string; readonly wins: string; readonly refunds: string }>`
      SELECT ${sql.literal(ReportsPg.groupKeys[groupBy])} AS key, count(*)::float8 AS rounds,
        (sum(t.debits) + sum(CASE WHEN t.debits = 0 THEN t.refunds ELSE 0 END))::text AS bets,
        sum(t.credits)::text AS wins, sum(t.refunds)::text AS refunds
      FROM rounds r JOIN game_sessions s ON s.id = r.session_id JOIN merchants m ON m.id = r.merchant_id
      ${sql.literal(ledgerOfRound)}
      WHERE r.merchant_id = ${merchantId} AND r.mode = 'real' AND t.entries > 0
        AND r.created_at >= ${range.from} AND r.created_at < ${range.to}
      GROUP BY 1 ORDER BY 1`
  })

/** The relations and node types of a plan (EXPLAIN (FORMAT JSON)), depth first. */
const nodesOf = (plan: Record<string, unknown>): Array<string> => [
  `${String(plan["Node Type"])} ${String(plan["Relation Name"] ?? "")} ${String(plan["Index Name"] ?? "")}`.trim(),
  ...((plan["Plans"] as Array<Record<string, unknown>> | undefined) ?? []).flatMap(nodesOf)
]

describe("round sums (migration 0010)", () => {
  layer(testLayer, { excludeTestServices: true })((it) => {
    it.effect("are the sums of each round's ledger entries, however the ledger is written", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const m = yield* merchant
        const a = yield* sessionFor(m, "player-a")
        const settled = yield* round(a, 300n, "settle", 0n)
        const big = yield* round(a, maxStakeMinor, "settle", 2n * maxStakeMinor)
        const failed = yield* round(a, 500n, "fail")
        const refused = yield* round(a, 700n, "refuse")
        const debiting = yield* round(a, 900n, undefined)
        const demo = yield* sessionFor(m, "player-d", "demo")
        yield* (yield* GameSessionRepo).settleDemo(demo.id, demoRound(300n, 600n)).pipe(Effect.orDie)
        assert.deepStrictEqual(yield* sumsOf([settled, big, failed, refused, debiting]), [
          "300 0 0 2",
          `${maxStakeMinor} ${2n * maxStakeMinor} 0 2`,
          "0 0 500 1",
          "0 0 0 0",
          "0 0 0 0"
        ])

        // Written by hand: several entries of one round, and of several rounds, in one statement; an entry in
        // another currency than the merchant's (not summed, as the summary never summed it); sums past a bigint.
        yield* sql`
          INSERT INTO ledger_entries (round_id, transaction_id, kind, amount_minor, currency)
          VALUES (${debiting}, ${randomUUID()}, 'debit', 900, 'ETB'), (${debiting}, ${randomUUID()}, 'credit', 1800, 'ETB'),
            (${refused}, ${randomUUID()}, 'refund', 7, 'ETB'), (${settled}, ${randomUUID()}, 'credit', 5, 'EUR'),
            (${debiting}, ${randomUUID()}, 'credit', 1, 'ETB')`
        yield* sql`
          INSERT INTO ledger_entries (round_id, transaction_id, kind, amount_minor, currency)
          SELECT ${big}, gen_random_uuid(), 'credit', ${bigintMax}, 'ETB' FROM generate_series(1, 2)`
        assert.deepStrictEqual(yield* sumsOf([settled, big, refused, debiting]), [
          "300 0 0 2",
          `${maxStakeMinor} ${2n * maxStakeMinor + 2n * bigintMax} 0 4`,
          "0 0 7 1",
          "900 1801 0 3"
        ])
        assert.deepStrictEqual(yield* disagreeing, [])
        const [demoSums] = yield* sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM rounds WHERE mode = 'demo' AND ledger_entries = 0 AND ledger_debit_minor = 0`
        assert.strictEqual(demoSums?.n, 1)

        // The ledger stays append-only: the sums have nothing else to follow.
        const changed = yield* Effect.flip(sql`UPDATE ledger_entries SET amount_minor = 1 WHERE round_id = ${settled}`)
        assert.strictEqual(changed.reason._tag, "ConstraintError")
      }))

    it.effect("make the summary the ledger's, read from a rounds index without the ledger", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const reports = yield* Reports
        const m = yield* merchant
        const other = yield* merchant
        const players = [yield* sessionFor(m, "player-a"), yield* sessionFor(m, "player-b")]
        const closes = ["settle", "settle", "fail", "refuse", undefined] as const
        for (let i = 0; i < 30; i++) {
          const session = players[i % 2] as GameSession
          const id = yield* round(session, BigInt(100 + i * 37), closes[i % 5], BigInt((i % 3) * 150))
          yield* sql`UPDATE rounds SET created_at = ${new Date(range.from.getTime() + i * 5_400_000)} WHERE id = ${id}`
        }
        yield* round(yield* sessionFor(other, "player-a"), 1000n, "settle", 5000n)
        for (const groupBy of ["day", "game", "player"] as const) {
          const { groups: summary } = yield* reports.summary(m.id, m.currency, range, groupBy, { page: 1, limit: 100 })
          const oracle = yield* fromLedger(m.id, groupBy)
          assert.deepStrictEqual(
            summary.map((g) => [g.key, g.rounds, String(g.bets), String(g.wins), String(g.refunds)]),
            oracle.map((g) => [g.key, g.rounds, g.bets, g.wins, g.refunds]),
            groupBy
          )
          assert.isAbove(summary.length, groupBy === "game" ? 0 : 1)
        }
        assert.deepStrictEqual((yield* reports.summary(m.id, "EUR" as typeof m.currency, range, "day", { page: 1, limit: 100 })).groups, [])

        yield* sql`VACUUM ANALYZE rounds`
        const explain = (groupBy: GroupBy) =>
          Effect.gen(function*() {
            const [text, params] = ReportsPg.sumsStatement(sql, [{ id: m.id, currency: m.currency }], range,
              ReportsPg.groupKeys[groupBy], groupBy === "player").compile()
            // A handful of rounds: the planner would rather read the whole table.
            const [row] = yield* sql.withTransaction(Effect.andThen(
              Effect.andThen(sql`SET LOCAL enable_seqscan = off`, sql`SET LOCAL enable_bitmapscan = off`),
              sql.unsafe<{ readonly "QUERY PLAN": ReadonlyArray<{ readonly Plan: Record<string, unknown> }> }>(
                `EXPLAIN (FORMAT JSON) ${text}`,
                params
              )
            ))
            return nodesOf(row?.["QUERY PLAN"][0]?.Plan ?? {})
          })
        for (const groupBy of ["day", "player"] as const) {
          const nodes = yield* explain(groupBy)
          // Which index reads the rounds depends on the statistics of a handful of rows (the merchant's, or the
          // session's, seen both in full test runs); at scale it is an index-only scan (bench/results/*-reports*.md).
          assert.isTrue(nodes.some((node) => node.startsWith("Index") && node.includes(" rounds ")), nodes.join(", "))
          assert.isFalse(nodes.some((node) => node.includes("ledger_entries")), nodes.join(", "))
        }
      }))
  })
})
