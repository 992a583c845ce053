import { assert, describe, layer } from "@effect/vitest"
import type { GameSession } from "@gateway/domain/GameSession"
import { maxStakeMinor } from "@gateway/domain/Money"
import { GameSessionRepo } from "@gateway/domain/ports/GameSessionRepo"
import { Reports } from "@gateway/domain/ports/Reports"
import { reportSummary } from "@gateway/domain/usecases/Reports"
import { Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import * as ReportsPg from "../src/ReportsPg.ts"
import { demoRound, merchant, realRound, sessionOf, walletLayer } from "./walletFixtures.ts"

const testLayer = ReportsPg.layer.pipe(Layer.provideMerge(walletLayer))

const day1 = new Date("2026-03-01T10:00:00Z")
const day2 = new Date("2026-03-02T23:59:59.999Z")
const range = { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-03-03T00:00:00Z") }

/** A real round begun, closed by `close`, and moved to `at`. */
const round = (session: GameSession, stake: bigint, at: Date, close: "settle" | "fail" | "refuse", payout = 0n) =>
  realRound(session, stake, close, payout, at)

const world = Effect.gen(function*() {
  const m = yield* merchant
  const other = yield* merchant
  const a = yield* sessionOf(m, "player-a", "op-a")
  const b = yield* sessionOf(m, "player-b", "op-b")
  const cent = yield* round(a, 1n, day1, "settle", 0n)
  const big = yield* round(a, maxStakeMinor, day2, "settle", 2n * maxStakeMinor)
  const failed = yield* round(b, 500n, new Date(day2.getTime() - 1000), "fail")
  const refused = yield* round(b, 700n, new Date(day2.getTime() - 2000), "refuse")
  const foreign = yield* round(yield* sessionOf(other, "player-a", "op-x"), 900n, day2, "settle", 100n)
  const demo = yield* sessionOf(m, "player-a", "op-demo", "demo")
  yield* (yield* GameSessionRepo).settleDemo(demo.id, demoRound(300n, 600n)).pipe(Effect.orDie)
  yield* (yield* SqlClient)`UPDATE rounds SET created_at = ${new Date(day1.getTime() - 3_600_000)} WHERE session_id = ${demo.id}`
  const late = yield* round(a, 4200n, range.to, "settle", 0n)
  return { m, other, cent, big, failed, refused, foreign, late }
})

const page = { page: 1, limit: 100 }

describe("ReportsPg", () => {
  layer(testLayer, { excludeTestServices: true })((it) => {
    it.effect("lists the merchant's rounds of [from, to), newest first, with their transactions and states", () =>
      Effect.gen(function*() {
        const reports = yield* Reports
        const w = yield* world
        const all = yield* reports.rounds(w.m.id, range, { page: 1, limit: 100 })
        assert.strictEqual(all.total, 5)
        assert.deepStrictEqual(all.rounds.map((r) => r.roundId).slice(0, 4), [
          w.big.roundId,
          w.failed.roundId,
          w.refused.roundId,
          w.cent.roundId
        ])
        const [big, failed, refused, cent, demo] = all.rounds
        assert.strictEqual(big?.stake, "9999999999999.99")
        assert.strictEqual(big?.payout, "19999999999999.98")
        assert.deepStrictEqual(big?.transactions.map((t) => ({ ...t })), [
          { transactionId: w.big.debit.transactionId, type: "debit", amount: "9999999999999.99", status: "delivered" },
          { transactionId: w.big.credit.transactionId, type: "credit", amount: "19999999999999.98", status: "pending" }
        ])
        assert.deepStrictEqual(failed?.transactions.map((t) => [t.type, t.amount, t.status]), [
          ["debit", "5.00", "unknown"],
          ["refund", "5.00", "pending"]
        ])
        assert.deepStrictEqual(refused?.transactions.map((t) => [t.type, t.status]), [["debit", "refused"]])
        assert.deepStrictEqual([refused?.playerId, refused?.sessionId, refused?.status], ["player-b", "op-b", "refused"])
        assert.deepStrictEqual([cent?.stake, cent?.payout, cent?.currency, cent?.mode], ["0.01", "0.00", "ETB", "real"])
        assert.deepStrictEqual([demo?.mode, demo?.transactions.length], ["demo", 0])

        const page2 = yield* reports.rounds(w.m.id, range, { page: 2, limit: 2 })
        assert.deepStrictEqual(page2.rounds.map((r) => r.roundId), [w.refused.roundId, w.cent.roundId])
        assert.strictEqual(page2.total, 5)
        const ofB = yield* reports.rounds(w.m.id, { ...range, playerId: "player-b" }, { page: 1, limit: 10 })
        assert.deepStrictEqual(ofB.rounds.map((r) => r.roundId), [w.failed.roundId, w.refused.roundId])
        const failedOnly = yield* reports.rounds(w.m.id, { ...range, status: "failed" }, { page: 1, limit: 10 })
        assert.deepStrictEqual(failedOnly.rounds.map((r) => r.roundId), [w.failed.roundId])
        const day2Only = yield* reports.rounds(w.m.id, { from: new Date("2026-03-02T00:00:00Z"), to: range.to }, { page: 1, limit: 10 })
        assert.strictEqual(day2Only.total, 3)
        const otherGame = yield* reports.rounds(w.m.id, { ...range, gameId: "mega-ten" }, { page: 1, limit: 10 })
        assert.strictEqual(otherGame.total, 0)
        const indexes = yield* (yield* SqlClient)`SELECT indexname FROM pg_indexes WHERE tablename = 'rounds'`
        assert.include(indexes.map((row) => row["indexname"]), "rounds_merchant_created_idx")
      }))

    it.effect("finds one of the merchant's transactions; another merchant's or a malformed id is TransactionNotFound", () =>
      Effect.gen(function*() {
        const reports = yield* Reports
        const w = yield* world
        const credit = yield* reports.transaction(w.m.id, w.big.credit.transactionId)
        assert.deepStrictEqual({ ...credit }, {
          transactionId: w.big.credit.transactionId,
          type: "credit",
          amount: "19999999999999.98",
          status: "pending",
          roundId: w.big.roundId,
          currency: "ETB"
        })
        const debit = yield* reports.transaction(w.m.id, w.refused.debit.transactionId)
        assert.deepStrictEqual([debit.type, debit.status, debit.amount, debit.roundId], ["debit", "refused", "7.00", w.refused.roundId])
        const refund = yield* reports.transaction(w.m.id, w.failed.refund.transactionId)
        assert.deepStrictEqual([refund.type, refund.status], ["refund", "pending"])
        for (const id of [w.foreign.credit.transactionId, w.foreign.debit.transactionId, "not-a-uuid", randomUUID()]) {
          const exit = yield* Effect.exit(reports.transaction(w.m.id, id))
          assert.isTrue(Exit.isFailure(exit), id)
        }
      }))

    it.effect("sums real money exactly, per day, game and player, with ggr = bets − wins − refunds", () =>
      Effect.gen(function*() {
        const w = yield* world
        const byDay = yield* reportSummary(w.m, range, "day", page)
        assert.strictEqual(byDay.currency, "ETB")
        assert.deepStrictEqual(byDay.data.map((row) => ({ ...row })), [
          { key: "2026-03-01", rounds: 1, bets: "0.01", wins: "0.00", refunds: "0.00", ggr: "0.01", freeWins: "0.00" },
          {
            key: "2026-03-02",
            rounds: 2,
            bets: "10000000000004.99",
            wins: "19999999999999.98",
            refunds: "5.00",
            ggr: "-9999999999999.99",
            freeWins: "0.00"
          }
        ])
        assert.deepStrictEqual({ ...byDay.total }, {
          rounds: 3,
          bets: "10000000000005.00",
          wins: "19999999999999.98",
          refunds: "5.00",
          ggr: "-9999999999999.98",
          freeWins: "0.00"
        })
        const byPlayer = yield* reportSummary(w.m, range, "player", page)
        assert.deepStrictEqual(byPlayer.data.map((row) => [row.key, row.rounds, row.bets, row.ggr]), [
          ["player-a", 2, "10000000000000.00", "-9999999999999.98"],
          ["player-b", 1, "5.00", "0.00"]
        ])
        const second = yield* reportSummary(w.m, range, "player", { page: 2, limit: 1 })
        assert.deepStrictEqual(second.data.map((row) => row.key), ["player-b"], "a page of the groups")
        assert.deepStrictEqual({ ...second.meta }, { currentPage: 2, limit: 1, nextPage: 0, prevPage: 1, totalElements: 2, totalPage: 2 })
        assert.deepStrictEqual({ ...second.total }, { ...byDay.total }, "the total is the period's, not the page's")
        const byGame = yield* reportSummary(w.m, range, "game", page)
        assert.deepStrictEqual(byGame.data.map((row) => [row.key, row.rounds]), [["odd-even", 3]])
        assert.deepStrictEqual({ ...byGame.total }, { ...byDay.total })
        const empty = yield* reportSummary(w.m, { from: new Date("2025-01-01T00:00:00Z"), to: new Date("2025-02-01T00:00:00Z") }, "day", page)
        assert.deepStrictEqual([empty.data.length, empty.total.bets, empty.total.ggr], [0, "0.00", "0.00"])
        const tooLong = yield* Effect.exit(reportSummary(w.m, { from: new Date("2025-01-01T00:00:00Z"), to: range.to }, "day", page))
        assert.isTrue(Exit.isFailure(tooLong))
        const backwards = yield* Effect.exit(reportSummary(w.m, { from: range.to, to: range.from }, "day", page))
        assert.isTrue(Exit.isFailure(backwards))
      }))
  })
})
