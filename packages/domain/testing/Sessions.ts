import { DateTime, Effect, Layer, Redacted } from "effect"
import { SeedRotated, type SessionSeed } from "../src/Fairness.ts"
import { RoundNotFound } from "../src/Round.ts"
import { GameSession, SessionExpired } from "../src/GameSession.ts"
import { TokenAlreadyUsed } from "../src/LaunchToken.ts"
import { GameSessionRepo } from "../src/ports/GameSessionRepo.ts"
import { SessionEnded } from "../src/SessionControl.ts"
import { AutoplayLimitReached } from "../src/Autoplay.ts"
import { RoundLedger } from "../src/ports/RoundLedger.ts"
import type { WalletTransaction } from "../src/Wallet.ts"
import { InsufficientFunds } from "../src/Wallet.ts"

/** What the in-memory ledger was told. */
export interface LedgerLog {
  readonly begun: Array<string>
  readonly settled: Array<{ readonly roundId: string; readonly credit: WalletTransaction }>
  readonly refused: Array<string>
  readonly failed: Array<{ readonly roundId: string; readonly refund: WalletTransaction }>
}

/** The range of a PostgreSQL `bigint`, the type of every amount column. */
const INT8_MIN = -(2n ** 63n)
const INT8_MAX = 2n ** 63n - 1n

/**
 * What PostgreSQL does with an amount outside `bigint`: the query fails,
 * which the real adapters turn into a defect (500). The doubles do the same,
 * so that an amount the domain lets through unbounded shows up here too.
 */
const int8 = (...amounts: ReadonlyArray<bigint>): Effect.Effect<void> => {
  const outside = amounts.find((amount) => amount < INT8_MIN || amount > INT8_MAX)
  return outside === undefined ? Effect.void : Effect.die(new Error(`int8 out of range: ${outside}`))
}

/**
 * Sessions in memory: a jti redeems once; tokens are `session-<n>`; demo
 * balances move atomically; amounts outside `bigint` are defects, as in PostgreSQL.
 */
export const sessionRepo = Layer.sync(GameSessionRepo, () => {
  const used = new Set<string>()
  const sessions = new Map<string, GameSession>()
  const balances = new Map<string, bigint>()
  const seeds = new Map<string, SessionSeed & { nonce: number }>()
  const ended = new Set<string>()
  const autoplays = new Map<string, { left: number; readonly limit: bigint; lost: bigint }>()
  const live = (token: string) => {
    const session = sessions.get(token)
    if (session === undefined) return Effect.fail(new SessionExpired())
    return ended.has(session.id) ? Effect.fail(new SessionEnded()) : Effect.succeed(session)
  }
  return GameSessionRepo.of({
    claim: (jti) =>
      Effect.suspend(() => {
        if (used.has(jti)) return Effect.fail(new TokenAlreadyUsed())
        used.add(jti)
        return Effect.void
      }),
    release: (jti) => Effect.sync(() => void used.delete(jti)),
    open: (claims, demoBalanceMinor, seed, claimed = false, _reported = false, rtp) =>
      Effect.suspend(() => {
        if (!claimed && used.has(claims.jti)) return Effect.fail(new TokenAlreadyUsed())
        used.add(claims.jti)
        const n = sessions.size + 1
        const session = new GameSession({
          id: `00000000-0000-4000-a000-${String(n).padStart(12, "0")}`,
          merchantId: claims.mid,
          playerId: claims.sub,
          gameId: claims.gid,
          operatorSessionId: claims.sid,
          currency: claims.cur,
          mode: claims.mode,
          lobby: claims.lobby,
          createdAt: DateTime.makeUnsafe(Date.now()),
          expiresAt: DateTime.makeUnsafe(Date.now() + 30 * 60_000),
          ...(rtp === undefined ? {} : { rtp })
        })
        sessions.set(`session-${n}`, session)
        balances.set(session.id, demoBalanceMinor)
        seeds.set(session.id, { ...seed, nonce: 0 })
        return Effect.succeed({ session, sessionToken: Redacted.make(`session-${n}`) })
      }),
    authenticate: live,
    recall: live,
    identify: live,
    nextSeed: (id) =>
      ended.has(id) ? Effect.fail(new SessionEnded()) : Effect.sync(() => {
        const seed = seeds.get(id)
        if (seed === undefined) throw new Error(`no session ${id}`)
        seeds.set(id, { ...seed, nonce: seed.nonce + 1 })
        return seed
      }),
    rotate: (id, next) =>
      Effect.sync(() => {
        const old = seeds.get(id)
        if (old === undefined) throw new Error(`no session ${id}`)
        seeds.set(id, { ...next, nonce: 0 })
        return new SeedRotated({
          previous: { serverSeed: old.serverSeed, serverSeedHash: old.serverSeedHash, clientSeed: old.clientSeed, nonces: old.nonce },
          current: { serverSeedHash: next.serverSeedHash, clientSeed: next.clientSeed, nonce: 0 }
        })
      }),
    commitment: (id) =>
      Effect.sync(() => {
        const seed = seeds.get(id)
        if (seed === undefined) throw new Error(`no session ${id}`)
        return { serverSeedHash: seed.serverSeedHash, clientSeed: seed.clientSeed, nonce: seed.nonce }
      }),
    demoBalance: (id) => Effect.sync(() => balances.get(id) ?? 0n),
    settleDemo: (id, { payout, stake }) =>
      int8(stake, payout).pipe(Effect.andThen(Effect.suspend(() => {
        const balance = balances.get(id) ?? 0n
        if (balance < stake) return Effect.fail(new InsufficientFunds())
        return int8(balance - stake + payout).pipe(Effect.andThen(Effect.sync(() => {
          balances.set(id, balance - stake + payout)
          return balance - stake + payout
        })))
      }))),
    terminate: (merchantId, playerId, operatorSessionId) =>
      Effect.sync(() => {
        const matching = [...sessions.values()].filter((session) =>
          session.merchantId === merchantId && session.playerId === playerId && !ended.has(session.id) &&
          (operatorSessionId === undefined || session.operatorSessionId === operatorSessionId)
        )
        for (const session of matching) ended.add(session.id)
        return matching
      }),
    startAutoplay: (id, rounds, limit) => Effect.sync(() => void autoplays.set(id, { left: rounds, limit, lost: 0n })),
    takeAutoplayRound: (id) =>
      Effect.suspend(() => {
        const autoplay = autoplays.get(id)
        if (autoplay === undefined || autoplay.left <= 0 || autoplay.lost >= autoplay.limit) {
          return Effect.fail(new AutoplayLimitReached())
        }
        autoplay.left--
        return Effect.void
      }),
    countAutoplayLoss: (id, loss) =>
      Effect.sync(() => {
        const autoplay = autoplays.get(id)
        if (autoplay !== undefined) autoplay.lost += loss
      })
  })
})

/**
 * A ledger that records what it is told, taking each round's nonce from the
 * sessions' repository (give it {@link sessionRepo}); amounts outside
 * `bigint` are defects, as in PostgreSQL.
 */
export const ledger = (log: LedgerLog) =>
  Layer.effect(RoundLedger, Effect.map(Effect.service(GameSessionRepo), (sessions) => {
    // The autoplay rounds begun and not yet settled: their session and stake, for the loss counted as they settle.
    const autoplays = new Map<string, { readonly sessionId: string; readonly stake: bigint }>()
    return RoundLedger.of({
    begin: (round) =>
      int8(round.stake).pipe(
        Effect.andThen(round.autoplay === true ? sessions.takeAutoplayRound(round.sessionId) : Effect.void),
        Effect.andThen(sessions.nextSeed(round.sessionId)),
        Effect.tap(() => Effect.sync(() => {
          log.begun.push(round.roundId)
          if (round.autoplay === true) autoplays.set(round.roundId, { sessionId: round.sessionId, stake: round.stake })
        }))
      ),
    settle: (roundId, _outcome, payout, credit) =>
      int8(payout, credit.amount.minor).pipe(Effect.andThen(Effect.suspend(() => {
        log.settled.push({ roundId, credit })
        const autoplay = autoplays.get(roundId)
        autoplays.delete(roundId)
        return autoplay === undefined ? Effect.void : sessions.countAutoplayLoss(autoplay.sessionId, autoplay.stake - payout)
      }))),
    refuse: (roundId) => Effect.sync(() => void log.refused.push(roundId)),
    fail: (roundId, refund) =>
      int8(refund.amount.minor).pipe(Effect.andThen(Effect.sync(() => void log.failed.push({ roundId, refund })))),
    find: (_sessionId, roundId) => Effect.fail(new RoundNotFound({ roundId })),
    details: (roundId) => Effect.fail(new RoundNotFound({ roundId })),
    history: () => Effect.succeed({ rounds: [], total: 0 }),
    recall: () => Effect.succeed([])
  })
  }))
