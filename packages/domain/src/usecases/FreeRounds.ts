import { DateTime, Effect, Result } from "effect"
import { GameNotFound } from "../Game.ts"
import * as Games from "../games/Games.ts"
import { type GrantRequest, GrantList, maxLifetimeDays } from "../FreeRound.ts"
import type { Merchant } from "../Merchant.ts"
import { meta, type PageRequest } from "../Paging.ts"
import { FreeRounds } from "../ports/FreeRounds.ts"
import { GameCatalog } from "../ports/GameCatalog.ts"
import { Ids } from "../ports/Ids.ts"
import { ValidationFailed } from "../Validation.ts"
import { checkStake } from "./PlayRound.ts"

const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/u
const dayMs = 86_400_000

/** When a grant lapses: an ISO 8601 date-time with offset, after `now` and at most {@link maxLifetimeDays} later. */
export const checkExpiry = (text: string, now: DateTime.Utc): Result.Result<DateTime.Utc, ValidationFailed> => {
  const fail = (detail: string) => Result.fail(new ValidationFailed({ field: "expiresAt", detail }))
  const ms = isoDateTime.test(text) ? Date.parse(text) : Number.NaN
  if (Number.isNaN(ms)) return fail("must be an ISO 8601 date-time with offset, like \"2026-12-31T23:59:59Z\"")
  const nowMs = DateTime.toEpochMillis(now)
  if (ms <= nowMs) return fail("must be in the future")
  if (ms > nowMs + maxLifetimeDays * dayMs) return fail(`must be at most ${maxLifetimeDays} days ahead`)
  return Result.succeed(DateTime.makeUnsafe(ms))
}

/**
 * Grants a player free rounds of a built-in game of the catalogue (CONTRACT §13), at a stake the merchant's
 * limits allow, lapsing at `expiresAt`. The same campaign granted again to the same player and game answers the
 * first grant unchanged (a retried request grants nothing twice).
 */
export const grantFreeRounds = Effect.fn("grantFreeRounds")(function*(merchant: Merchant, request: GrantRequest) {
  const stake = yield* Effect.fromResult(checkStake(request.stake, merchant, merchant))
  const expiresAt = yield* Effect.fromResult(checkExpiry(request.expiresAt, yield* DateTime.now))
  yield* (yield* GameCatalog).find(request.gameId)
  if (Games.rulesOf(request.gameId) === undefined) return yield* new GameNotFound({ gameId: request.gameId })
  return yield* (yield* FreeRounds).grant({
    id: yield* (yield* Ids).uuid,
    merchantId: merchant.id,
    campaignId: request.campaignId,
    playerId: request.playerId,
    gameId: request.gameId,
    rounds: request.rounds,
    stake,
    currency: merchant.currency,
    expiresAt
  })
})

/** A page of the merchant's grants to a player, newest first. */
export const listFreeRounds = Effect.fn("listFreeRounds")(function*(merchant: Merchant, playerId: string, page: PageRequest) {
  const { grants, total } = yield* (yield* FreeRounds).list(merchant.id, playerId, page)
  return new GrantList({ data: grants, meta: meta(page, total) })
})

/** Cancels what is left of one of the merchant's grants. */
export const cancelFreeRounds = Effect.fn("cancelFreeRounds")(function*(merchant: Merchant, grantId: string) {
  return yield* (yield* FreeRounds).cancel(merchant.id, grantId)
})
