import { assert, describe, layer } from "@effect/vitest"
import { AutoplayLimitReached } from "@gateway/domain/Autoplay"
import { type GameSession, SessionExpired } from "@gateway/domain/GameSession"
import * as PayTable from "@gateway/domain/games/PayTable"
import * as Money from "@gateway/domain/Money"
import { GameSessionRepo } from "@gateway/domain/ports/GameSessionRepo"
import { RoundLedger } from "@gateway/domain/ports/RoundLedger"
import { toWebhookBody, type WalletTransaction } from "@gateway/domain/Wallet"
import { Deferred, Effect, Exit, Fiber, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import * as Outbox from "../src/db/Outbox.ts"
import * as StaleDebits from "../src/jobs/StaleDebits.ts"
import { demoRound, merchant, openSession, realRound, sessionOf, transaction, walletLayer } from "./walletFixtures.ts"

interface Ledger {
  readonly kind: string
  readonly transaction_id: string
  readonly amount_minor: bigint
}
interface Queued {
  readonly id: string
  readonly type: string
  readonly body: string
  readonly status: string
}

const state = (roundId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const [round] = yield* sql<{ readonly status: string; readonly outcome: string | null; readonly payout_minor: bigint | null }>`
      SELECT status, outcome, payout_minor FROM rounds WHERE id = ${roundId}`
    const ledger = yield* sql<Ledger>`
      SELECT kind, transaction_id::text AS transaction_id, amount_minor FROM ledger_entries WHERE round_id = ${roundId} ORDER BY id`
    const outbox = yield* sql<Queued>`
      SELECT id, type, body, status FROM webhook_deliveries WHERE body::jsonb -> 'data' ->> 'roundId' = ${roundId}`
    return { round, ledger, outbox }
  })

/** A round begun on a real session (by autoplay with `autoplay`): its id and debit. */
const begin = (session: GameSession, stake = 1250n, autoplay = false) =>
  Effect.gen(function*() {
    const roundId = randomUUID()
    const debit = transaction(session, "transaction.debit", roundId, stake)
    yield* (yield* RoundLedger).begin({
      roundId,
      sessionId: session.id,
      gameId: session.gameId,
      stake,
      selection: JSON.stringify("odd"),
      debit,
      autoplay
    })
    return { roundId, debit }
  })

const assertBody = (queued: Queued | undefined, tx: WalletTransaction) => {
  const body = JSON.parse(queued?.body ?? "{}")
  assert.strictEqual(queued?.id, tx.transactionId)
  assert.strictEqual(queued?.type, tx.type)
  assert.strictEqual(queued?.status, "pending")
  assert.strictEqual(queued?.body, JSON.stringify(toWebhookBody(tx, body.timestamp)))
  assert.isTrue(Math.abs(Date.parse(body.timestamp) - Date.now()) < 60_000)
}

describe("RoundLedgerPg", () => {
  layer(walletLayer, { excludeTestServices: true })((it) => {
    it.effect("settle books the debit and the credit and queues the credit; a repeat is a defect that books nothing", () =>
      Effect.gen(function*() {
        const ledger = yield* RoundLedger
        const { session } = yield* openSession()
        const { roundId, debit } = yield* begin(session)
        assert.strictEqual((yield* state(roundId)).round?.status, "debiting")
        const credit = transaction(session, "transaction.credit", roundId, 2500n, debit.transactionId)
        yield* ledger.settle(roundId, "odd", 2500n, credit)

        const after = yield* state(roundId)
        assert.deepStrictEqual(after.round, { status: "settled", outcome: "odd", payout_minor: 2500n })
        assert.deepStrictEqual(after.ledger, [
          { kind: "debit", transaction_id: debit.transactionId, amount_minor: 1250n },
          { kind: "credit", transaction_id: credit.transactionId, amount_minor: 2500n }
        ])
        assert.strictEqual(after.outbox.length, 1)
        assertBody(after.outbox[0], credit)
        assert.strictEqual(JSON.parse(after.outbox[0]?.body ?? "{}").data.amount, "25.00")

        const again = transaction(session, "transaction.credit", roundId, 2500n, debit.transactionId)
        assert.isTrue(Exit.hasDies(yield* Effect.exit(ledger.settle(roundId, "odd", 2500n, again))))
        assert.isTrue(Exit.hasDies(yield* Effect.exit(ledger.fail(roundId, again))))
        assert.isTrue(Exit.hasDies(yield* Effect.exit(ledger.refuse(roundId))))
        assert.deepStrictEqual(yield* state(roundId), after)
      }))

    it.effect("books the largest stake and its payout", () =>
      Effect.gen(function*() {
        const ledger = yield* RoundLedger
        const { session } = yield* openSession()
        const { roundId, debit } = yield* begin(session, Money.maxStakeMinor)
        const payout = PayTable.payout(Money.maxStakeMinor, PayTable.maxMultiplier)
        const credit = transaction(session, "transaction.credit", roundId, payout, debit.transactionId)
        yield* ledger.settle(roundId, "1 odd", payout, credit)
        const after = yield* state(roundId)
        assert.deepStrictEqual(after.round, { status: "settled", outcome: "1 odd", payout_minor: payout })
        assert.deepStrictEqual(after.ledger.map((l) => l.amount_minor), [Money.maxStakeMinor, payout])
        assert.strictEqual(JSON.parse(after.outbox[0]?.body ?? "{}").data.amount, "89999999999999910.00")
      }))

    it.effect("an autoplay round takes its autoplay round as it begins and counts its loss as it settles: none left or the loss limit reached → AutoplayLimitReached, nothing written", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const ledger = yield* RoundLedger
        const sessions = yield* GameSessionRepo
        const { session } = yield* openSession()
        const autoplayOf = () =>
          sql<{ readonly left: number; readonly lost: bigint; readonly nonce: number }>`
            SELECT autoplay_left AS left, autoplay_lost_minor AS lost, nonce::int AS nonce FROM game_sessions WHERE id = ${session.id}`
        const rounds = () => sql<{ readonly autoplay: boolean }>`SELECT autoplay FROM rounds WHERE session_id = ${session.id} ORDER BY created_at`
        assert.instanceOf(yield* Effect.flip(begin(session, 1000n, true)), AutoplayLimitReached, "no autoplay started")
        assert.deepStrictEqual(yield* rounds(), [])

        yield* sessions.startAutoplay(session.id, 3, 1500n)
        const settle = (round: { readonly roundId: string; readonly debit: WalletTransaction }, payout: bigint) =>
          ledger.settle(round.roundId, "odd", payout, transaction(session, "transaction.credit", round.roundId, payout, round.debit.transactionId))
        yield* settle(yield* begin(session, 1000n, true), 0n)
        assert.deepStrictEqual(yield* autoplayOf(), [{ left: 2, lost: 1000n, nonce: 1 }])
        yield* settle(yield* begin(session, 1000n), 0n)
        assert.deepStrictEqual(yield* autoplayOf(), [{ left: 2, lost: 1000n, nonce: 2 }], "a round the player plays is not autoplay's")
        yield* settle(yield* begin(session, 1000n, true), 1600n)
        assert.deepStrictEqual(yield* autoplayOf(), [{ left: 1, lost: 400n, nonce: 3 }], "a win counts back")
        yield* settle(yield* begin(session, 1000n, true), 0n)
        assert.deepStrictEqual(yield* autoplayOf(), [{ left: 0, lost: 1400n, nonce: 4 }])
        assert.instanceOf(yield* Effect.flip(begin(session, 1000n, true)), AutoplayLimitReached, "no round left")
        yield* sessions.startAutoplay(session.id, 5, 1000n)
        yield* settle(yield* begin(session, 1000n, true), 0n)
        assert.instanceOf(yield* Effect.flip(begin(session, 1000n, true)), AutoplayLimitReached, "1000 lost")
        assert.deepStrictEqual(yield* autoplayOf(), [{ left: 4, lost: 1000n, nonce: 5 }], "nothing taken")
        assert.deepStrictEqual((yield* rounds()).map((r) => r.autoplay), [true, false, true, true, true])

        // Two rounds of the session settling at once (in one statement when batched together): both losses count.
        yield* sessions.startAutoplay(session.id, 5, 10_000n)
        const [a, b] = [yield* begin(session, 700n, true), yield* begin(session, 300n, true)]
        yield* Effect.all([settle(a, 0n), settle(b, 0n)], { concurrency: 2 })
        assert.deepStrictEqual(yield* autoplayOf(), [{ left: 3, lost: 1000n, nonce: 7 }])

        yield* sql`UPDATE game_sessions SET expires_at = now() - interval '1 second' WHERE id = ${session.id}`
        assert.instanceOf(yield* Effect.flip(begin(session, 1000n, true)), SessionExpired, "an expired session says so")
      }))

    it.effect("begin takes the session's next nonce with the round, in one step; an ended session writes nothing", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const { session } = yield* openSession()
        const seedOfRound = (roundId: string) =>
          sql<{ readonly nonce: number; readonly client_seed: string; readonly server_seed_hash: string }>`
            SELECT nonce::int AS nonce, client_seed, server_seed_hash FROM rounds WHERE id = ${roundId}`
        const first = yield* begin(session)
        const second = yield* begin(session)
        const [stored] = yield* sql<{ readonly server_seed_hash: string; readonly client_seed: string }>`
          SELECT server_seed_hash, client_seed FROM game_sessions WHERE id = ${session.id}`
        assert.deepStrictEqual([...(yield* seedOfRound(first.roundId)), ...(yield* seedOfRound(second.roundId))], [
          { nonce: 0, client_seed: stored?.client_seed ?? "", server_seed_hash: stored?.server_seed_hash ?? "" },
          { nonce: 1, client_seed: stored?.client_seed ?? "", server_seed_hash: stored?.server_seed_hash ?? "" }
        ])

        yield* sql`UPDATE game_sessions SET expires_at = now() - interval '1 second' WHERE id = ${session.id}`
        const roundId = randomUUID()
        const ended = yield* Effect.flip((yield* RoundLedger).begin({
          roundId,
          sessionId: session.id,
          gameId: session.gameId,
          stake: 100n,
          selection: JSON.stringify("odd"),
          debit: transaction(session, "transaction.debit", roundId, 100n)
        }))
        assert.instanceOf(ended, SessionExpired)
        assert.deepStrictEqual(yield* seedOfRound(roundId), [])
        const [after] = yield* sql<{ readonly nonce: number }>`SELECT nonce::int AS nonce FROM game_sessions WHERE id = ${session.id}`
        assert.strictEqual(after?.nonce, 2)
      }))

    it.effect("settle is one transaction: a failure in the middle or at the end leaves nothing", () =>
      Effect.gen(function*() {
        const ledger = yield* RoundLedger
        const sql = yield* SqlClient
        const { session } = yield* openSession()
        const first = yield* begin(session)
        const credit = transaction(session, "transaction.credit", first.roundId, 0n, first.debit.transactionId)
        yield* ledger.settle(first.roundId, "even", 0n, credit)

        // A settlement that fails writes nothing of itself. (The round it leaves `debiting` is orphaned: the ledger
        // refunds it within a quarter of a second, so only what the settlement would have written is looked at.)
        const settlement = (roundId: string) =>
          Effect.map(state(roundId), ({ round, ledger, outbox }) => ({
            settled: round?.status === "settled" || round?.outcome !== null,
            booked: ledger.filter((entry) => entry.kind !== "refund"),
            queued: outbox.filter((message) => message.type !== "transaction.refund")
          }))
        const second = yield* begin(session)
        const duplicate = { ...credit, roundId: second.roundId, refTransactionId: second.debit.transactionId }
        assert.isTrue(Exit.hasDies(yield* Effect.exit(ledger.settle(second.roundId, "odd", 2500n, duplicate))))
        assert.deepStrictEqual(yield* settlement(second.roundId), { settled: false, booked: [], queued: [] })

        const third = yield* begin(session)
        const queuedFirst = transaction(session, "transaction.credit", third.roundId, 2500n, third.debit.transactionId)
        yield* Outbox.enqueue(sql, { id: queuedFirst.transactionId, merchantId: session.merchantId, type: "webhook.test", body: "{}" })
        assert.isTrue(Exit.hasDies(yield* Effect.exit(ledger.settle(third.roundId, "odd", 2500n, queuedFirst))))
        assert.deepStrictEqual(yield* settlement(third.roundId), { settled: false, booked: [], queued: [] })

        const fourth = yield* begin(session)
        const good = transaction(session, "transaction.credit", fourth.roundId, 2500n, fourth.debit.transactionId)
        yield* ledger.settle(fourth.roundId, "odd", 2500n, good)
        assert.strictEqual((yield* state(fourth.roundId)).ledger.length, 2)
      }))

    it.effect("rounds begun and settled at once (batched) each take their own nonce and settle alone; a refused one fails alone", () =>
      Effect.gen(function*() {
        const ledger = yield* RoundLedger
        const sessions = yield* Effect.forEach(Array.from({ length: 12 }), () => Effect.map(openSession(), (o) => o.session))
        // Three rounds of every session at once: a session's rounds never share a statement, so no nonce is taken twice.
        const begun = yield* Effect.forEach(
          sessions.flatMap((session) => [session, session, session]),
          (session) => Effect.map(begin(session), (round) => ({ session, ...round })),
          { concurrency: "unbounded" }
        )
        const sql = yield* SqlClient
        const nonces = yield* sql<{ readonly session_id: string; readonly nonces: string }>`
          SELECT session_id::text AS session_id, string_agg(nonce::text, ',' ORDER BY nonce) AS nonces
          FROM rounds WHERE id = ANY(${begun.map((r) => r.roundId)}::uuid[]) GROUP BY session_id`
        assert.strictEqual(nonces.length, 12)
        for (const row of nonces) assert.strictEqual(row.nonces, "0,1,2")
        // All settled at once, one with a credit id queued already (a defect): it dies alone, every other settles.
        const [poisoned, ...rest] = begun
        const clash = transaction(poisoned!.session, "transaction.credit", poisoned!.roundId, 10n, poisoned!.debit.transactionId)
        yield* Outbox.enqueue(sql, { id: clash.transactionId, merchantId: clash.merchantId, type: "webhook.test", body: "{}" })
        const settled = yield* Effect.forEach(begun, (round, i) => {
          const credit = round === poisoned
            ? clash
            : transaction(round.session, "transaction.credit", round.roundId, BigInt(i), round.debit.transactionId)
          return Effect.exit(ledger.settle(round.roundId, "odd", credit.amount.minor, credit))
        }, { concurrency: "unbounded" })
        assert.isTrue(Exit.hasDies(settled[0]!))
        assert.isTrue(settled.slice(1).every(Exit.isSuccess))
        // The round that could not settle is never settled: its debit is refunded by the ledger's own repair (every
        // 250 ms), which a slow machine's next read may already see.
        const closed = yield* state(poisoned!.roundId).pipe(
          Effect.repeat({ until: (s) => s.round?.status === "failed", schedule: Schedule.spaced("100 millis"), times: 50 })
        )
        assert.strictEqual(closed.round?.status, "failed")
        assert.deepStrictEqual(closed.ledger.map((entry) => entry.kind), ["refund"])
        assert.deepStrictEqual(closed.outbox.map((message) => message.type), ["transaction.refund"])
        for (const [i, round] of rest.entries()) {
          const after = yield* state(round.roundId)
          assert.deepStrictEqual(after.round, { status: "settled", outcome: "odd", payout_minor: BigInt(i + 1) })
          assert.deepStrictEqual(after.ledger.map((entry) => entry.kind), ["debit", "credit"])
          assert.strictEqual(after.outbox.length, 1)
        }
      }))

    it.effect("rounds that arrive while a begin runs wait for it and begin together in the next statement, one transaction", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const [held, ...others] = yield* Effect.forEach(Array.from({ length: 9 }), () => Effect.map(openSession(), (o) => o.session))
        // Another transaction holds the first session's row, so the begin of its round waits in the database.
        const release = yield* Deferred.make<void>()
        const locked = yield* Deferred.make<void>()
        const holder = yield* sql.withTransaction(
          sql`SELECT id FROM game_sessions WHERE id = ${held!.id} FOR UPDATE`.pipe(
            Effect.andThen(Deferred.succeed(locked, undefined)),
            Effect.andThen(Deferred.await(release))
          )
        ).pipe(Effect.forkChild)
        yield* Deferred.await(locked)
        const waiting = yield* Effect.forkChild(begin(held!))
        yield* sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.pipe(
          Effect.repeat({ until: (rows) => rows[0]?.n === 1, schedule: Schedule.spaced("20 millis"), times: 250 })
        )
        // Eight rounds of other sessions meanwhile: none starts a statement of its own beside the waiting one.
        const later = yield* Effect.forkChild(Effect.forEach(others, (session) => begin(session), { concurrency: "unbounded" }))
        yield* Effect.sleep("500 millis") // each joins the waiting ones at once (no I/O before): ample on a slow machine
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        yield* Fiber.join(waiting)
        const rounds = yield* Fiber.join(later)
        const transactions = yield* sql<{ readonly n: number }>`
          SELECT count(DISTINCT xmin::text)::int AS n FROM rounds WHERE id = ANY(${rounds.map((r) => r.roundId)}::uuid[])`
        assert.strictEqual(rounds.length, 8)
        assert.strictEqual(transactions[0]?.n, 1, "the eight rounds were begun by one statement")
      }))

    it.effect("refuse closes the round and queues nothing; fail books and queues the refund", () =>
      Effect.gen(function*() {
        const ledger = yield* RoundLedger
        const { session } = yield* openSession()
        const refused = yield* begin(session)
        yield* ledger.refuse(refused.roundId)
        assert.deepStrictEqual(yield* state(refused.roundId), {
          round: { status: "refused", outcome: null, payout_minor: null },
          ledger: [],
          outbox: []
        })

        const failed = yield* begin(session, 700n)
        const refund = transaction(session, "transaction.refund", failed.roundId, 700n, failed.debit.transactionId)
        yield* ledger.fail(failed.roundId, refund)
        const after = yield* state(failed.roundId)
        assert.strictEqual(after.round?.status, "failed")
        assert.deepStrictEqual(after.ledger, [{ kind: "refund", transaction_id: refund.transactionId, amount_minor: 700n }])
        assert.strictEqual(after.outbox.length, 1)
        assertBody(after.outbox[0], refund)
      }))

    it.effect("the ledger is append-only: UPDATE, DELETE and TRUNCATE raise", () =>
      Effect.gen(function*() {
        const ledger = yield* RoundLedger
        const sql = yield* SqlClient
        const { session } = yield* openSession()
        const { roundId, debit } = yield* begin(session)
        yield* ledger.settle(roundId, "odd", 0n, transaction(session, "transaction.credit", roundId, 0n, debit.transactionId))
        const before = yield* state(roundId)
        const update = yield* Effect.flip(sql`UPDATE ledger_entries SET amount_minor = 1 WHERE round_id = ${roundId}`)
        const raised = (error: typeof update) => `${error.reason.cause}`
        assert.include(raised(update), "append-only: UPDATE refused")
        assert.include(raised(yield* Effect.flip(sql`DELETE FROM ledger_entries WHERE round_id = ${roundId}`)), "DELETE refused")
        assert.include(raised(yield* Effect.flip(sql`TRUNCATE ledger_entries CASCADE`)), "TRUNCATE refused")
        assert.deepStrictEqual(yield* state(roundId), before)
      }))

    it.effect("two concurrent sweepers refund each stale debiting round exactly once and leave fresh ones", () =>
      Effect.gen(function*() {
        const ledger = yield* RoundLedger
        const sql = yield* SqlClient
        const { session } = yield* openSession()
        const stale = yield* Effect.all(Array.from({ length: 8 }, () => begin(session, 300n)))
        const fresh = yield* begin(session)
        yield* sql`UPDATE rounds SET created_at = now() - interval '10 minutes'
          WHERE id IN ${sql.in(stale.map((r) => r.roundId))}`

        const counts = yield* Effect.all(
          [StaleDebits.recoverStaleDebits(120), StaleDebits.recoverStaleDebits(120)],
          { concurrency: "unbounded" }
        )
        assert.strictEqual(counts[0] + counts[1], stale.length)
        for (const { roundId, debit } of stale) {
          const after = yield* state(roundId)
          assert.strictEqual(after.round?.status, "failed")
          assert.strictEqual(after.ledger.length, 1)
          assert.strictEqual(after.ledger[0]?.kind, "refund")
          assert.strictEqual(after.ledger[0]?.amount_minor, 300n)
          assert.strictEqual(after.outbox.length, 1)
          const body = JSON.parse(after.outbox[0]?.body ?? "{}")
          assert.strictEqual(after.outbox[0]?.id, after.ledger[0]?.transaction_id)
          assert.deepStrictEqual(body.data, {
            transactionId: after.ledger[0]?.transaction_id,
            refTransactionId: debit.transactionId,
            roundId,
            roundClosed: true,
            merchantId: session.merchantId,
            playerId: session.playerId,
            sessionId: session.operatorSessionId,
            gameId: session.gameId,
            amount: "3.00",
            currency: "ETB"
          })
          assert.strictEqual(body.type, "transaction.refund")
          const late = transaction(session, "transaction.credit", roundId, 0n, debit.transactionId)
          assert.isTrue(Exit.hasDies(yield* Effect.exit(ledger.settle(roundId, "odd", 0n, late))))
        }
        assert.strictEqual((yield* state(fresh.roundId)).round?.status, "debiting")
        assert.strictEqual(yield* StaleDebits.recoverStaleDebits(120), 0)
      }))

    it.effect("layerRecovery sweeps in the background from start-up", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const { session } = yield* openSession()
        const { roundId } = yield* begin(session)
        yield* sql`UPDATE rounds SET created_at = now() - interval '10 minutes' WHERE id = ${roundId}`
        yield* Layer.build(StaleDebits.layerRecovery({ olderThanSeconds: 120, every: "1 hour" }))
        let status = (yield* state(roundId)).round?.status
        for (let i = 0; i < 50 && status === "debiting"; i++) {
          yield* Effect.sleep("20 millis")
          status = (yield* state(roundId)).round?.status
        }
        assert.strictEqual(status, "failed")
      }).pipe(Effect.scoped))

    it.effect("recall: the player's last rounds of the game in the mode, newest first, across sessions, at most the limit", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const ledger = yield* RoundLedger
        const sessionsRepo = yield* GameSessionRepo
        const m = yield* merchant
        const older = yield* sessionOf(m, "p-recall", "op-1")
        const newer = yield* sessionOf(m, "p-recall", "op-2")
        const demo = yield* sessionOf(m, "p-recall", "op-3", "demo")
        const someoneElse = yield* sessionOf(m, "p-other", "op-4")
        const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000)
        const playedIn = (session: GameSession, from: number, count: number) =>
          Effect.forEach(Array.from({ length: count }, (_, i) => from - i), (n) =>
            Effect.map(realRound(session, 100n, "settle", 0n, minutesAgo(n)), (r) => r.roundId))
        const fromOlder = yield* playedIn(older, 30, 8)
        const fromNewer = yield* playedIn(newer, 10, 4)
        const lotto = (yield* realRound(newer, 100n, "settle", 0n, minutesAgo(1))).roundId
        yield* sql`UPDATE rounds SET game_id = 'lotto' WHERE id = ${lotto}`
        yield* playedIn(someoneElse, 1, 2)
        yield* sessionsRepo.settleDemo(demo.id, { ...demoRound(100n, 0n), seed: yield* sessionsRepo.nextSeed(demo.id) })
        const key = { merchantId: m.id, playerId: "p-recall", gameId: older.gameId, mode: "real" as const }
        const recalled = yield* ledger.recall(key, 10)
        assert.deepStrictEqual(recalled.map((r) => r.roundId), [...[...fromNewer].reverse(), ...[...fromOlder].reverse()].slice(0, 10))
        assert.deepStrictEqual((yield* ledger.recall({ ...key, gameId: "lotto" }, 10)).map((r) => r.roundId), [lotto])
        assert.lengthOf(yield* ledger.recall({ ...key, mode: "demo" }, 10), 1)
        assert.lengthOf(yield* ledger.recall({ ...key, playerId: "p-nobody" }, 10), 0)
        assert.lengthOf(yield* ledger.recall(key, 3), 3)
      }))
  })
})
