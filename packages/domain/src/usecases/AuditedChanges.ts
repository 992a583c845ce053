import { Effect } from "effect"
import type { ApiKeyPrefix } from "../ApiKey.ts"
import { type Actor, type AuditValue, type AuditValues, changedValues, type NewAuditEntry } from "../Audit.ts"
import type { Game, GameId } from "../Game.ts"
import type { AccountStatus, CreateMerchantRequest, MerchantId } from "../Merchant.ts"
import { type MerchantSettings, type SettingsChange, settingsFieldNames } from "../MerchantSettings.ts"
import { ApiKeyRepo } from "../ports/ApiKeyRepo.ts"
import { AuditLog } from "../ports/AuditLog.ts"
import { GameCatalog } from "../ports/GameCatalog.ts"
import { profitFields } from "../games/ProfitFields.ts"
import { defaultProfit, formatRtp, profitBp } from "../games/Rtp.ts"
import { MerchantRepo } from "../ports/MerchantRepo.ts"
import { changeSettings } from "./ChangeSettings.ts"
import { createMerchant } from "./CreateMerchant.ts"

/*
 * The administrative changes of the admin API and the command line, each
 * recorded in the audit log in the transaction of the change (CONTRACT §9):
 * who, from where, and the touched values before and after. A change that
 * changes nothing (the same status, the same settings) records nothing.
 */

const settingsValues = (settings: MerchantSettings): Record<string, unknown> =>
  Object.fromEntries(settingsFieldNames.map((field) => [field, settings[field]]))

/** {@link createMerchant}, audited: the new account's public fields (its secrets never). */
export const createMerchantAudited = (request: CreateMerchantRequest, actor: Actor) =>
  Effect.gen(function*() {
    return yield* (yield* AuditLog).audited(createMerchant(request), (created) => ({
      merchantId: created.id,
      actor,
      action: "merchant.create",
      before: null,
      after: {
        email: created.email,
        companyName: created.companyName,
        country: created.country,
        currency: created.currency,
        providerId: created.providerId,
        accountStatus: created.accountStatus
      }
    }))
  })

/** A house-edge field's name → the RTP's beside it in the log (`oddEvenGameProfit` → `oddEvenGameRtp`). */
const profitSettings = new Set<string>(Object.values(profitFields))

/**
 * Touched values with, beside each house edge changed, the RTP it puts in force as players see it (an unset
 * edge is the default's: `null → 4` reads `97.50 → 96.00`) when that RTP moved, so the log shows the RTP
 * before and after.
 */
const withRtps = (changed: { readonly before: Record<string, AuditValue>; readonly after: Record<string, AuditValue> }) => {
  const before = { ...changed.before }
  const after = { ...changed.after }
  const rtpOf = (profit: AuditValue) => formatRtp(10_000 - profitBp(typeof profit === "number" ? profit : defaultProfit))
  for (const field of Object.keys(changed.after)) {
    if (!profitSettings.has(field)) continue
    const [was, is] = [rtpOf(changed.before[field] ?? null), rtpOf(changed.after[field] ?? null)]
    if (was === is) continue
    const rtpField = field.replace(/Profit$/, "Rtp")
    before[rtpField] = was
    after[rtpField] = is
  }
  return { before, after }
}

/** {@link changeSettings}, audited: the fields whose values changed (house edges with their RTPs), before and after. */
export const changeSettingsAudited = (merchantId: MerchantId, change: SettingsChange, actor: Actor) =>
  Effect.gen(function*() {
    const merchants = yield* MerchantRepo
    const done = yield* (yield* AuditLog).audited(
      Effect.gen(function*() {
        const before = (yield* merchants.findById(merchantId)).MerchantSettings
        return { before, after: yield* changeSettings(merchantId, change) }
      }),
      ({ after, before }) => {
        const changed = changedValues(settingsValues(before), settingsValues(after))
        return Object.keys(changed.after).length === 0
          ? undefined
          : { merchantId, actor, action: "merchant.settings", ...withRtps(changed) }
      }
    )
    return done.after
  })

/** The account status change, audited when the status moved. */
export const changeStatusAudited = (merchantId: MerchantId, to: AccountStatus, actor: Actor) =>
  Effect.gen(function*() {
    const merchants = yield* MerchantRepo
    const done = yield* (yield* AuditLog).audited(
      Effect.gen(function*() {
        const before = yield* merchants.findById(merchantId)
        return { from: before.accountStatus, merchant: yield* merchants.changeStatus(merchantId, to) }
      }),
      ({ from, merchant }) =>
        from === merchant.accountStatus ? undefined : {
          merchantId,
          actor,
          action: "merchant.status",
          before: { accountStatus: from },
          after: { accountStatus: merchant.accountStatus }
        }
    )
    return done.merchant
  })

/** Issues an API key of an existing merchant, audited: its slug and prefix (never the key). */
export const issueApiKeyAudited = (merchantId: MerchantId, prefix: ApiKeyPrefix, actor: Actor) =>
  Effect.gen(function*() {
    yield* (yield* MerchantRepo).findById(merchantId)
    const keys = yield* ApiKeyRepo
    return yield* (yield* AuditLog).audited(keys.issue(merchantId, prefix), (issued) => ({
      merchantId,
      actor,
      action: "api_key.issue",
      before: null,
      after: { slug: issued.apiKey.slug, prefix: issued.apiKey.prefix }
    }))
  })

/** Revokes a live API key of an existing merchant, audited; `false` (nothing recorded) when it has no such key. */
export const revokeApiKeyAudited = (merchantId: MerchantId, slug: string, actor: Actor) =>
  Effect.gen(function*() {
    yield* (yield* MerchantRepo).findById(merchantId)
    const keys = yield* ApiKeyRepo
    const revoked: AuditValues = { slug, revoked: true }
    return yield* (yield* AuditLog).audited(keys.revoke(merchantId, slug), (done) =>
      done
        ? { merchantId, actor, action: "api_key.revoke", before: { slug, revoked: false }, after: revoked }
        : undefined)
  })

/** A listed game's fields as the audit log keeps them (its id is in both sides of the entry). */
const gameValues = (game: Game): Record<string, AuditValue> => ({
  id: game.id,
  name: game.name,
  releaseDate: game.releaseDate,
  baseLaunchUrl: game.baseLaunchUrl,
  category: game.category,
  imageUrl: game.imageUrl
})


/**
 * Adds or changes a game of the provider's catalogue, audited with no merchant: the game's fields before (null
 * when it was not listed: new, or retired and listed again) and after. Saving the same game again records nothing.
 */
export const upsertGameAudited = (id: GameId, game: Omit<Game, "id">, actor: Actor) =>
  Effect.gen(function*() {
    const catalog = yield* GameCatalog
    const done = yield* (yield* AuditLog).audited(
      Effect.gen(function*() {
        // Not listed (new, or retired): undefined.
        const before = yield* catalog.find(id).pipe(Effect.catchTag("GameNotFound", () => Effect.succeed(undefined)))
        return { before, after: yield* catalog.upsert(id, game) }
      }),
      ({ after, before }): NewAuditEntry | undefined => {
        if (before === undefined) {
          return { merchantId: null, actor, action: "game.upsert", before: null, after: gameValues(after) }
        }
        const changed = changedValues(gameValues(before), gameValues(after))
        return Object.keys(changed.after).length === 0 ? undefined : {
          merchantId: null,
          actor,
          action: "game.upsert",
          before: { id, ...changed.before },
          after: { id, ...changed.after }
        }
      }
    )
    return done.after
  })

/** Retires a listed game, audited with no merchant; `GameNotFound` (nothing recorded) when it is not listed. */
export const retireGameAudited = (id: GameId, actor: Actor) =>
  Effect.gen(function*() {
    const catalog = yield* GameCatalog
    yield* (yield* AuditLog).audited(catalog.retire(id), () => ({
      merchantId: null,
      actor,
      action: "game.retire",
      before: { id, listed: true },
      after: { id, listed: false }
    }))
  })
