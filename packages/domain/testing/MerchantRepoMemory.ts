import { Effect, Layer, Redacted } from "effect"
import {
  canChangeStatus,
  EmailTaken,
  Merchant,
  MerchantId,
  MerchantNotFound,
  type MerchantQuery,
  StatusChangeRefused
} from "../src/Merchant.ts"
import { offset } from "../src/Paging.ts"
import { MerchantRepo, type MerchantSecrets } from "../src/ports/MerchantRepo.ts"
import { makeMerchant, makeSettings } from "./Fixtures.ts"

/** Merchants in memory, and a way to replace one behind the repository's back (as another instance would). */
export interface MemoryMerchants {
  readonly service: MerchantRepo["Service"]
  readonly put: (merchant: Merchant) => void
  /** How often `findById` was called. */
  readonly reads: () => number
}

const placeholderSecrets: MerchantSecrets = {
  privateKey: Redacted.make("private"),
  encryptionKey: Redacted.make("whsec_x")
}

/**
 * The MerchantRepo port in memory: e-mails unique regardless of case,
 * settings changes atomic, `closed` final, lists newest (highest id) first. `secrets` answers `secrets` for
 * every merchant (placeholders unless given real ones).
 */
export const makeMerchantRepo = (
  initial: ReadonlyArray<Merchant> = [],
  secrets: MerchantSecrets = placeholderSecrets
): MemoryMerchants => {
  const store = new Map(initial.map((m) => [m.id, m]))
  const rotated = new Map<MerchantId, MerchantSecrets>()
  let reads = 0
  const findById = (id: MerchantId) =>
    Effect.suspend(() => {
      reads++
      const found = store.get(id)
      return found === undefined ? Effect.fail(new MerchantNotFound({ merchantId: id })) : Effect.succeed(found)
    })
  const matches = (query: MerchantQuery) => (merchant: Merchant) => {
    const needle = query.search?.toLowerCase() ?? ""
    return (query.status === undefined || merchant.accountStatus === query.status) &&
      (merchant.email.toLowerCase().includes(needle) || merchant.companyName.toLowerCase().includes(needle))
  }
  const service = MerchantRepo.of({
    create: (input) =>
      Effect.suspend(() => {
        if ([...store.values()].some((m) => m.email.toLowerCase() === input.email.toLowerCase())) {
          return Effect.fail(new EmailTaken())
        }
        const merchant = makeMerchant({
          id: MerchantId.make(store.size + 1),
          email: input.email,
          companyName: input.companyName,
          country: input.country,
          currency: input.currency,
          providerId: input.providerId,
          clientId: input.clientId,
          hashedClientId: input.hashedClientId,
          publicKey: input.publicKey
        })
        store.set(merchant.id, merchant)
        return Effect.succeed(merchant)
      }),
    findById,
    deliverySettings: (ids) =>
      Effect.sync(() => {
        reads++
        return new Map(ids.flatMap((id) => {
          const found = store.get(id)
          return found === undefined ? [] : [[id, found.MerchantSettings] as const]
        }))
      }),
    list: (query) =>
      Effect.sync(() => {
        const found = [...store.values()].filter(matches(query)).sort((a, b) => b.id - a.id)
        return { merchants: found.slice(offset(query), offset(query) + query.limit), total: found.length }
      }),
    secrets: (id) =>
      store.has(id) ? Effect.succeed(rotated.get(id) ?? secrets) : Effect.fail(new MerchantNotFound({ merchantId: id })),
    rotateSecret: (id, replacement, overlapSeconds) =>
      Effect.gen(function*() {
        const merchant = yield* findById(id)
        const current = rotated.get(id) ?? secrets
        const untilMs = Date.now() + overlapSeconds * 1000
        if (replacement.secret === "encryptionKey") {
          rotated.set(id, {
            ...current,
            encryptionKey: replacement.encryptionKey,
            previousEncryptionKey: { value: current.encryptionKey, untilMs }
          })
          return { overlapUntilMs: untilMs, previousPublicKey: undefined }
        }
        rotated.set(id, { ...current, privateKey: replacement.privateKey, previousPrivateKey: { value: current.privateKey, untilMs } })
        store.set(id, new Merchant({ ...merchant, publicKey: replacement.publicKey }))
        return { overlapUntilMs: untilMs, previousPublicKey: merchant.publicKey }
      }),
    changeSettings: (id, change) =>
      Effect.gen(function*() {
        const merchant = yield* findById(id)
        const settings = makeSettings(yield* Effect.fromResult(change(merchant.MerchantSettings)))
        store.set(id, new Merchant({ ...merchant, MerchantSettings: settings }))
        return settings
      }),
    changeStatus: (id, to) =>
      Effect.gen(function*() {
        const merchant = yield* findById(id)
        if (!canChangeStatus(merchant.accountStatus, to)) {
          return yield* new StatusChangeRefused({ from: merchant.accountStatus, to })
        }
        const next = new Merchant({ ...merchant, accountStatus: to })
        store.set(id, next)
        return next
      })
  })
  return { service, put: (merchant) => void store.set(merchant.id, merchant), reads: () => reads }
}

/** {@link makeMerchantRepo} as a layer. */
export const merchantRepo = (initial: ReadonlyArray<Merchant> = [], secrets?: MerchantSecrets) =>
  Layer.sync(MerchantRepo, () => makeMerchantRepo(initial, secrets).service)
