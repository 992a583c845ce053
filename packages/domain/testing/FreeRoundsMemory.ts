import { DateTime, Effect, Layer } from "effect"
import { FreeRoundGrant, GrantNotFound, NoFreeRounds, SessionFreeRounds } from "../src/FreeRound.ts"
import * as Money from "../src/Money.ts"
import { offset } from "../src/Paging.ts"
import { FreeRounds, type NewGrant } from "../src/ports/FreeRounds.ts"
import { GameSessionRepo } from "../src/ports/GameSessionRepo.ts"

interface Kept extends NewGrant {
  remaining: number
  cancelled: boolean
  readonly createdAt: DateTime.Utc
}

/**
 * Grants of free rounds in memory, with the rules of the PostgreSQL adapter: one grant per campaign, player and
 * game; a round taken from the grant that expires first; the session's nonce taken by
 * {@link GameSessionRepo.nextSeed}. A free round's credit is not queued anywhere (see the adapter's tests).
 */
export const freeRounds = Layer.effect(FreeRounds, Effect.gen(function*() {
  const sessions = yield* GameSessionRepo
  const grants: Array<Kept> = []
  const status = (g: Kept, now: DateTime.Utc) =>
    g.cancelled ? "cancelled" as const : g.remaining === 0 ? "used" as const :
    DateTime.isLessThanOrEqualTo(g.expiresAt, now) ? "expired" as const : "active" as const
  const view = (g: Kept, now: DateTime.Utc) => {
    const s = status(g, now)
    return new FreeRoundGrant({
      id: g.id, campaignId: g.campaignId, playerId: g.playerId, gameId: g.gameId, rounds: g.rounds,
      remaining: s === "active" || s === "used" ? g.remaining : 0,
      stake: Money.format(Money.make(g.stake, g.currency)), currency: g.currency, status: s,
      expiresAt: g.expiresAt, createdAt: g.createdAt
    })
  }
  const live = (now: DateTime.Utc, merchantId: number, playerId: string, gameId: string) =>
    grants.filter((g) => g.merchantId === merchantId && g.playerId === playerId && g.gameId === gameId &&
      status(g, now) === "active")
      .sort((a, b) => DateTime.toEpochMillis(a.expiresAt) - DateTime.toEpochMillis(b.expiresAt))
  return FreeRounds.of({
    grant: (grant) => Effect.map(DateTime.now, (now) => {
      const first = grants.find((g) => g.merchantId === grant.merchantId && g.playerId === grant.playerId &&
        g.gameId === grant.gameId && g.campaignId === grant.campaignId)
      if (first !== undefined) return view(first, now)
      const kept: Kept = { ...grant, remaining: grant.rounds, cancelled: false, createdAt: now }
      grants.push(kept)
      return view(kept, now)
    }),
    list: (merchantId, playerId, page) => Effect.map(DateTime.now, (now) => {
      const mine = grants.filter((g) => g.merchantId === merchantId && g.playerId === playerId).reverse()
      return { grants: mine.slice(offset(page), offset(page) + page.limit).map((g) => view(g, now)), total: mine.length }
    }),
    cancel: (merchantId, grantId) => Effect.flatMap(DateTime.now, (now) => {
      const g = grants.find((g) => g.merchantId === merchantId && g.id === grantId)
      if (g === undefined) return Effect.fail(new GrantNotFound({ grantId }))
      if (status(g, now) === "active") {
        g.cancelled = true
        g.remaining = 0
      }
      return Effect.succeed(view(g, now))
    }),
    available: (merchantId, playerId, gameId) => Effect.map(DateTime.now, (now) =>
      live(now, merchantId, playerId, gameId).map((g) => new SessionFreeRounds({
        grantId: g.id, campaignId: g.campaignId, remaining: g.remaining,
        stake: Money.format(Money.make(g.stake, g.currency)), expiresAt: g.expiresAt
      }))),
    play: (round, decide) => Effect.gen(function*() {
      const [g] = live(yield* DateTime.now, round.merchantId, round.playerId, round.gameId)
      if (g === undefined) return yield* new NoFreeRounds()
      const seed = yield* sessions.nextSeed(round.sessionId)
      g.remaining -= 1
      const taken = { grantId: g.id, campaignId: g.campaignId, stake: g.stake, remaining: g.remaining }
      return { decision: decide(seed, taken), seed, taken }
    })
  })
}))
