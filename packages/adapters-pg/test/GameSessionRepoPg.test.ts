import { assert, describe, layer } from "@effect/vitest"
import { SessionExpired } from "@gateway/domain/GameSession"
import { TokenAlreadyUsed } from "@gateway/domain/LaunchToken"
import { GameSessionRepo } from "@gateway/domain/ports/GameSessionRepo"
import { RoundLedger } from "@gateway/domain/ports/RoundLedger"
import { RoundNotFound } from "@gateway/domain/Round"
import * as Money from "@gateway/domain/Money"
import { InsufficientFunds } from "@gateway/domain/Wallet"
import { MerchantId } from "@gateway/domain/Merchant"
import { SessionEnded } from "@gateway/domain/SessionControl"
import { AutoplayLimitReached } from "@gateway/domain/Autoplay"
import { makeClaims } from "@gateway/domain/testing"
import { DateTime, Effect, Exit, Redacted, Result } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import { hashToken } from "../src/GameSessionRepoPg.ts"
import { claimsOf, demoRound, idleSeconds, merchant, openSession, seedOf, walletLayer } from "./walletFixtures.ts"

const secondsFromNow = (at: DateTime.Utc) => (DateTime.toEpochMillis(at) - Date.now()) / 1000

describe("GameSessionRepoPg", () => {
  layer(walletLayer, { excludeTestServices: true })((it) => {
    it.effect("opens a session once per jti, stores only the token's hash, and authenticates with the token", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const m = yield* merchant
        const claims = claimsOf(m.id)
        const opened = yield* sessions.open(claims, 0n, seedOf())
        const token = Redacted.value(opened.sessionToken)
        assert.match(token, /^[A-Za-z0-9_-]{43}$/)
        assert.strictEqual(opened.session.merchantId, m.id)
        assert.strictEqual(opened.session.operatorSessionId, "op-session-1")
        assert.strictEqual(opened.session.mode, "real")
        assert.closeTo(secondsFromNow(opened.session.expiresAt), idleSeconds, 5)

        const sql = yield* SqlClient
        const rows = yield* sql<{ readonly row: string; readonly hash: Uint8Array }>`
          SELECT s::text AS row, token_hash AS hash FROM game_sessions s WHERE id = ${opened.session.id}`
        assert.notInclude(rows[0]?.row ?? token, token)
        assert.deepStrictEqual(Buffer.from(rows[0]?.hash ?? []), hashToken(token))

        const authenticated = yield* sessions.authenticate(token)
        assert.strictEqual(authenticated.id, opened.session.id)
        assert.instanceOf(yield* Effect.flip(sessions.open(claims, 0n, seedOf())), TokenAlreadyUsed)
      }))

    it.effect("10 concurrent redemptions of one jti: exactly one opens a session", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const m = yield* merchant
        const claims = claimsOf(m.id)
        const results = yield* Effect.all(Array.from({ length: 10 }, () => Effect.result(sessions.open(claims, 0n, seedOf()))), {
          concurrency: "unbounded"
        })
        assert.strictEqual(results.filter(Result.isSuccess).length, 1)
        for (const failure of results.filter(Result.isFailure)) assert.instanceOf(failure.failure, TokenAlreadyUsed)
        const sql = yield* SqlClient
        const count = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM game_sessions WHERE merchant_id = ${m.id}`
        assert.strictEqual(count[0]?.n, 1)
      }))

    it.effect("a claimed jti refuses every other claim and redemption until released; the claimant opens the session", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const m = yield* merchant
        const claims = claimsOf(m.id)
        const claimsAtOnce = yield* Effect.all(Array.from({ length: 10 }, () => Effect.result(sessions.claim(claims.jti))), {
          concurrency: "unbounded"
        })
        assert.strictEqual(claimsAtOnce.filter(Result.isSuccess).length, 1)
        assert.instanceOf(yield* Effect.flip(sessions.open(claims, 0n, seedOf())), TokenAlreadyUsed)
        yield* sessions.release(claims.jti)
        yield* sessions.claim(claims.jti)
        const opened = yield* sessions.open(claims, 0n, seedOf(), true)
        assert.strictEqual(opened.session.merchantId, m.id)
        assert.instanceOf(yield* Effect.flip(sessions.claim(claims.jti)), TokenAlreadyUsed)
      }))

    it.effect("refuses wrong and expired tokens; pushes the idle expiry forward at most once a minute", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const sql = yield* SqlClient
        const { session, sessionToken } = yield* openSession()
        const token = Redacted.value(sessionToken)
        const wrong = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`
        assert.instanceOf(yield* Effect.flip(sessions.authenticate(wrong)), SessionExpired)
        assert.instanceOf(yield* Effect.flip(sessions.authenticate("")), SessionExpired)

        yield* sql`UPDATE game_sessions SET expires_at = now() + interval '30 seconds' WHERE id = ${session.id}`
        const recent = yield* sessions.authenticate(token)
        assert.closeTo(secondsFromNow(recent.expiresAt), 30, 5)

        yield* sql`UPDATE game_sessions SET last_seen_at = now() - interval '2 minutes' WHERE id = ${session.id}`
        const touched = yield* sessions.authenticate(token)
        assert.closeTo(secondsFromNow(touched.expiresAt), idleSeconds, 5)
        const stored = yield* sql<{ readonly s: number }>`
          SELECT extract(epoch FROM expires_at - now())::int AS s FROM game_sessions WHERE id = ${session.id}`
        assert.closeTo(stored[0]?.s ?? 0, idleSeconds, 5)

        yield* sql`UPDATE game_sessions SET expires_at = now() - interval '1 second' WHERE id = ${session.id}`
        assert.instanceOf(yield* Effect.flip(sessions.authenticate(token)), SessionExpired)
      }))

    it.effect("a round of a remembered session still sees it end at once: nextSeed refuses an ended session and takes no nonce", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const sql = yield* SqlClient
        const { session, sessionToken } = yield* openSession()
        const token = Redacted.value(sessionToken)
        assert.strictEqual((yield* sessions.recall(token)).id, session.id)
        yield* sql`UPDATE game_sessions SET last_seen_at = now() - interval '10 minutes', expires_at = now() + interval '5 seconds'
          WHERE id = ${session.id}`
        assert.strictEqual((yield* sessions.nextSeed(session.id)).nonce, 0)
        const [touched] = yield* sql<{ readonly s: number }>`
          SELECT extract(epoch FROM expires_at - now())::int AS s FROM game_sessions WHERE id = ${session.id}`
        assert.closeTo(touched?.s ?? 0, idleSeconds, 5, "a round pushes the idle expiry forward")

        yield* sql`UPDATE game_sessions SET expires_at = now() - interval '1 second' WHERE id = ${session.id}`
        assert.strictEqual((yield* sessions.recall(token)).id, session.id, "recalled from memory: it never changes")
        assert.instanceOf(yield* Effect.flip(sessions.nextSeed(session.id)), SessionExpired)
        const [nonce] = yield* sql<{ readonly n: number }>`SELECT nonce::int AS n FROM game_sessions WHERE id = ${session.id}`
        assert.strictEqual(nonce?.n, 1, "no nonce is taken for an ended session")
        assert.instanceOf(yield* Effect.flip(sessions.recall("unknown-token")), SessionExpired)
      }))

    it.effect("a demo balance refuses to go below zero", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const { session } = yield* openSession("demo", 100_000n)
        assert.strictEqual(yield* sessions.demoBalance(session.id), 100_000n)
        assert.strictEqual(yield* sessions.settleDemo(session.id, demoRound(60_000n, 0n)), 40_000n)
        assert.instanceOf(yield* Effect.flip(sessions.settleDemo(session.id, demoRound(50_000n, 200_000n))), InsufficientFunds)
        assert.strictEqual(yield* sessions.settleDemo(session.id, demoRound(40_000n, 5_000n)), 5_000n)
        assert.strictEqual(yield* sessions.demoBalance(session.id), 5_000n)

        const real = yield* openSession("real")
        assert.instanceOf(yield* Effect.flip(sessions.settleDemo(real.session.id, demoRound(1n, 0n))), InsufficientFunds)
        assert.isTrue(Exit.hasDies(yield* Effect.exit(sessions.demoBalance(real.session.id))))
        assert.isTrue(Exit.hasDies(yield* Effect.exit(sessions.demoBalance(randomUUID()))))
      }))

    it.effect("the largest stake and its payout fit the demo balance", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const { session } = yield* openSession("demo", Money.maxStakeMinor)
        const payout = (Money.maxStakeMinor * 195n) / 100n
        assert.strictEqual(yield* sessions.settleDemo(session.id, demoRound(Money.maxStakeMinor, payout)), payout)
        assert.strictEqual(yield* sessions.demoBalance(session.id), 1_949_999_999_999_998n)
      }))

    it.effect("20 concurrent demo settlements are atomic: the balance never goes below zero nor loses an update", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const { session } = yield* openSession("demo", 400n)
        const results = yield* Effect.all(
          Array.from({ length: 20 }, (_, i) => Effect.result(sessions.settleDemo(session.id, demoRound(30n, i % 2 === 0 ? 0n : 1n)))),
          { concurrency: "unbounded" }
        )
        const won = results.filter(Result.isSuccess)
        const refused = results.filter(Result.isFailure)
        for (const failure of refused) assert.instanceOf(failure.failure, InsufficientFunds)
        const balance = yield* sessions.demoBalance(session.id)
        const paid = results.flatMap((r, i) => Result.isSuccess(r) && i % 2 === 1 ? [1n] : []).length
        assert.strictEqual(balance, 400n - 30n * BigInt(won.length) + BigInt(paid))
        assert.isAtLeast(won.length, 13)
        assert.isTrue(balance >= 0n && balance < 30n)
        assert.strictEqual(new Set(won.map((r) => r.success)).size, won.length)
      }))

    it.effect("seeds: committed at open, nonces counted atomically, revealed by a rotation and shown on the rounds they drew", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const ledger = yield* RoundLedger
        const sql = yield* SqlClient
        const m = yield* merchant
        const first = seedOf("first-seed")
        const opened = yield* sessions.open(claimsOf(m.id, "demo"), 100_000n, first)
        const id = opened.session.id
        const [stored] = yield* sql<{ readonly server_seed_hash: string }>`
          SELECT server_seed_hash FROM game_sessions WHERE id = ${id}`
        assert.strictEqual(stored?.server_seed_hash, first.serverSeedHash, "PostgreSQL's hash of the seed is the committed one")

        const zero = yield* sessions.nextSeed(id)
        assert.deepStrictEqual(zero, { ...first, nonce: 0 })
        const nonces = yield* Effect.all(Array.from({ length: 10 }, () => sessions.nextSeed(id)), { concurrency: "unbounded" })
        assert.deepStrictEqual(nonces.map((n) => n.nonce).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])

        const round = { ...demoRound(1_000n, 1_950n), seed: zero }
        yield* sessions.settleDemo(id, round)
        const before = yield* ledger.find(id, round.roundId)
        assert.deepStrictEqual(before.fairness, { serverSeedHash: first.serverSeedHash, clientSeed: "first-seed", nonce: 0 })
        assert.deepStrictEqual(
          { mode: before.mode, status: before.status, stake: before.stake, payout: before.payout, selection: before.selection },
          { mode: "demo", status: "settled", stake: "10.00", payout: "19.50", selection: "odd" }
        )
        assert.deepStrictEqual(before.outcome, { number: 1, parity: "odd", summary: "1 odd" })

        const second = seedOf("second-seed")
        const rotated = yield* sessions.rotate(id, second)
        assert.deepStrictEqual(rotated.previous, {
          serverSeed: first.serverSeed,
          serverSeedHash: first.serverSeedHash,
          clientSeed: "first-seed",
          nonces: 11
        })
        assert.deepStrictEqual(rotated.current, { serverSeedHash: second.serverSeedHash, clientSeed: "second-seed", nonce: 0 })
        assert.deepStrictEqual(yield* sessions.nextSeed(id), { ...second, nonce: 0 })
        const after = yield* ledger.find(id, round.roundId)
        assert.strictEqual(after.fairness?.serverSeed, first.serverSeed)

        const other = yield* openSession("demo", 1_000n)
        assert.instanceOf(yield* Effect.flip(ledger.find(other.session.id, round.roundId)), RoundNotFound)
        assert.instanceOf(yield* Effect.flip(ledger.find(id, "not-a-uuid")), RoundNotFound)
        const page = yield* ledger.history(id, { page: 1, limit: 5 })
        assert.strictEqual(page.total, 1)
        assert.deepStrictEqual(page.rounds.map((r) => r.roundId), [round.roundId])
      }))

    it.effect("a rotation while rounds take nonces: every nonce is counted under exactly one seed", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const { session } = yield* openSession("demo", 1_000n)
        const taken = yield* Effect.all(
          [
            ...Array.from({ length: 20 }, () => sessions.nextSeed(session.id)),
            sessions.rotate(session.id, seedOf("rotated")).pipe(Effect.map((r) => r.previous))
          ],
          { concurrency: "unbounded" }
        )
        const previous = taken[20] as { readonly nonces: number; readonly serverSeedHash: string }
        const seeds = taken.slice(0, 20) as ReadonlyArray<{ readonly nonce: number; readonly serverSeedHash: string }>
        const underOld = seeds.filter((s) => s.serverSeedHash === previous.serverSeedHash).map((s) => s.nonce)
        const underNew = seeds.filter((s) => s.serverSeedHash !== previous.serverSeedHash).map((s) => s.nonce)
        const range = (n: number) => Array.from({ length: n }, (_, i) => i)
        assert.deepStrictEqual([...underOld].sort((a, b) => a - b), range(previous.nonces))
        assert.deepStrictEqual([...underNew].sort((a, b) => a - b), range(20 - previous.nonces))
      }))

    it.effect("terminate ends a player's live sessions at once (CONTRACT §12): every later use is SessionEnded; others are untouched", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const sql = yield* SqlClient
        const m = yield* merchant
        const open = (sub: string, sid: string) =>
          sessions.open(makeClaims({ mid: MerchantId.make(m.id), mode: "real", jti: randomUUID(), sub, sid }), 0n, seedOf())
            .pipe(Effect.orDie)
        const [a, b, other, idle] = yield* Effect.all([open("p", "s1"), open("p", "s2"), open("q", "s1"), open("p", "s3")])
        const token = (o: typeof a) => Redacted.value(o.sessionToken)
        yield* sql`UPDATE game_sessions SET expires_at = now() - interval '1 second' WHERE id = ${idle.session.id}`
        assert.strictEqual((yield* sessions.recall(token(a))).id, a.session.id)

        const ended = yield* sessions.terminate(m.id, "p", "s1")
        assert.deepStrictEqual(ended.map((s) => s.id), [a.session.id])
        assert.instanceOf(yield* Effect.flip(sessions.authenticate(token(a))), SessionEnded)
        assert.instanceOf(yield* Effect.flip(sessions.identify(token(a))), SessionEnded)
        assert.instanceOf(yield* Effect.flip(sessions.nextSeed(a.session.id)), SessionEnded)
        assert.strictEqual((yield* sessions.authenticate(token(b))).id, b.session.id)

        assert.deepStrictEqual((yield* sessions.terminate(m.id, "p", undefined)).map((s) => s.id), [b.session.id])
        assert.instanceOf(yield* Effect.flip(sessions.authenticate(token(b))), SessionEnded)
        assert.instanceOf(yield* Effect.flip(sessions.authenticate(token(idle))), SessionExpired, "idle is not terminated")
        assert.strictEqual((yield* sessions.authenticate(token(other))).id, other.session.id)
        assert.deepStrictEqual(yield* sessions.terminate(m.id, "p", undefined), [])
      }))

    it.effect("autoplay: its rounds are taken atomically until the count or the loss limit is reached", () =>
      Effect.gen(function*() {
        const sessions = yield* GameSessionRepo
        const { session } = yield* openSession()
        assert.instanceOf(yield* Effect.flip(sessions.takeAutoplayRound(session.id)), AutoplayLimitReached, "none started")
        yield* sessions.startAutoplay(session.id, 3, 1000n)
        const taken = yield* Effect.all(Array.from({ length: 6 }, () => Effect.result(sessions.takeAutoplayRound(session.id))), {
          concurrency: "unbounded"
        })
        assert.strictEqual(taken.filter(Result.isSuccess).length, 3)
        yield* sessions.startAutoplay(session.id, 10, 1000n)
        yield* sessions.takeAutoplayRound(session.id)
        yield* sessions.countAutoplayLoss(session.id, 1500n)
        yield* sessions.countAutoplayLoss(session.id, -600n)
        yield* sessions.takeAutoplayRound(session.id)
        yield* sessions.countAutoplayLoss(session.id, 100n)
        assert.instanceOf(yield* Effect.flip(sessions.takeAutoplayRound(session.id)), AutoplayLimitReached, "1000 lost")
      }))
  })
})
