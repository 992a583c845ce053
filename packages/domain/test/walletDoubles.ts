import { DateTime, Effect, Layer, Redacted, Schema } from "effect"
import { Unauthorized } from "../src/Auth.ts"
import { GameSession, SessionExpired } from "../src/GameSession.ts"
import { LaunchClaims, TokenAlreadyUsed } from "../src/LaunchToken.ts"
import { GameEngine } from "../src/ports/GameEngine.ts"
import { GameSessionRepo } from "../src/ports/GameSessionRepo.ts"
import { LaunchTokenVerifier } from "../src/ports/LaunchTokenVerifier.ts"
import { RoundLedger } from "../src/ports/RoundLedger.ts"
import { WalletClient } from "../src/ports/WalletClient.ts"
import { ValidationFailed } from "../src/Validation.ts"
import { BetRefused, InsufficientFunds, type WalletTransaction, WalletUnavailable } from "../src/Wallet.ts"

const decodeClaims = Schema.decodeUnknownEffect(Schema.fromJsonString(LaunchClaims))
const encodeClaims = Schema.encodeSync(Schema.fromJsonString(LaunchClaims))

/** A "launch token" the test verifier accepts: the JSON of the claims. `forged` tokens have a bad prefix. */
export const launchToken = (claims: LaunchClaims): string => encodeClaims(claims)

/** Verifies tokens made by {@link launchToken}: expired → "launch link expired", anything else bad → "invalid launch link". */
export const jsonVerifier = Layer.succeed(
  LaunchTokenVerifier,
  LaunchTokenVerifier.of({
    verify: (token) =>
      decodeClaims(token).pipe(
        Effect.mapError(() => new Unauthorized({ detail: "invalid launch link" })),
        Effect.filterOrFail(
          (claims) => claims.exp > Date.now() / 1000,
          () => new Unauthorized({ detail: "launch link expired" })
        )
      )
  })
)

/** What the in-memory ledger was told. */
export interface LedgerLog {
  readonly begun: Array<string>
  readonly settled: Array<{ readonly roundId: string; readonly credit: WalletTransaction }>
  readonly refused: Array<string>
  readonly failed: Array<{ readonly roundId: string; readonly refund: WalletTransaction }>
}

/** Sessions in memory: a jti redeems once; tokens are `session-<n>`; demo balances move atomically. */
export const sessionRepo = Layer.sync(GameSessionRepo, () => {
  const used = new Set<string>()
  const sessions = new Map<string, GameSession>()
  const balances = new Map<string, bigint>()
  return GameSessionRepo.of({
    open: (claims, demoBalanceMinor) =>
      Effect.suspend(() => {
        if (used.has(claims.jti)) return Effect.fail(new TokenAlreadyUsed())
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
          expiresAt: DateTime.makeUnsafe(Date.now() + 30 * 60_000)
        })
        sessions.set(`session-${n}`, session)
        balances.set(session.id, demoBalanceMinor)
        return Effect.succeed({ session, sessionToken: Redacted.make(`session-${n}`) })
      }),
    authenticate: (token) => {
      const session = sessions.get(token)
      return session === undefined ? Effect.fail(new SessionExpired()) : Effect.succeed(session)
    },
    demoBalance: (id) => Effect.sync(() => balances.get(id) ?? 0n),
    settleDemo: (id, stake, payout) =>
      Effect.suspend(() => {
        const balance = balances.get(id) ?? 0n
        if (balance < stake) return Effect.fail(new InsufficientFunds())
        balances.set(id, balance - stake + payout)
        return Effect.succeed(balance - stake + payout)
      })
  })
})

/** A ledger that records what it is told. */
export const ledger = (log: LedgerLog) =>
  Layer.succeed(RoundLedger, RoundLedger.of({
    begin: (round) => Effect.sync(() => void log.begun.push(round.roundId)),
    settle: (roundId, _outcome, _payout, credit) => Effect.sync(() => void log.settled.push({ roundId, credit })),
    refuse: (roundId) => Effect.sync(() => void log.refused.push(roundId)),
    fail: (roundId, refund) => Effect.sync(() => void log.failed.push({ roundId, refund }))
  }))

/** A wallet that refuses player `broke` (402), is unavailable for player `offline`, and otherwise answers 90.00. */
export const wallet = Layer.succeed(
  WalletClient,
  WalletClient.of({
    debit: (_merchant, debit) =>
      debit.playerId === "broke"
        ? Effect.fail(new BetRefused({ operatorStatus: 402 }))
        : debit.playerId === "offline"
        ? Effect.fail(new WalletUnavailable({ detail: "the operator's wallet did not answer within 5000 ms" }))
        : Effect.succeed({ balance: "90.00" })
  })
)

/** An engine for `odd-even` that always draws `draw` (1..36) and pays 1.95× on a win. */
export const fixedEngine = (draw: number) =>
  Layer.succeed(
    GameEngine,
    GameEngine.of({
      validate: (gameId, selection) =>
        gameId === "odd-even" && (selection === "odd" || selection === "even")
          ? Effect.void
          : Effect.fail(new ValidationFailed({ field: "selection", detail: "must be \"odd\" or \"even\"" })),
      play: (_gameId, selection, stake) => {
        const won = (draw % 2 === 1) === (selection === "odd")
        return Effect.succeed({ outcome: `${draw} ${draw % 2 === 1 ? "odd" : "even"}`, payout: won ? stake * 195n / 100n : 0n })
      }
    })
  )

