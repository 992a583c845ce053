import { DateTime, Effect, Layer, Redacted, Ref } from "effect"
import type { ApiKey } from "../src/ApiKey.ts"
import { Unauthorized } from "../src/Auth.ts"
import type { CurrencyCode } from "../src/Currency.ts"
import { Game, GameNotFound } from "../src/Game.ts"
import { EmailTaken, Merchant, MerchantId, MerchantNotFound, StatusChangeRefused, canChangeStatus } from "../src/Merchant.ts"
import { MerchantSettings, type SettingsValues } from "../src/MerchantSettings.ts"
import type { OperatorBadResponse, OperatorTimeout } from "../src/Operator.ts"
import { type DetailsRequest, PlayerDetails, type PlayerRejected } from "../src/Player.ts"
import { ApiKeyRepo } from "../src/ports/ApiKeyRepo.ts"
import { GameCatalog } from "../src/ports/GameCatalog.ts"
import { Ids } from "../src/ports/Ids.ts"
import { LaunchTokenSigner } from "../src/ports/LaunchTokenSigner.ts"
import { MerchantCredentials } from "../src/ports/MerchantCredentials.ts"
import { MerchantRepo } from "../src/ports/MerchantRepo.ts"
import { OperatorDetails } from "../src/ports/OperatorDetails.ts"

export const epoch = DateTime.makeUnsafe("2026-11-21T22:00:00.000Z")

export const makeSettings = (values: SettingsValues = {}) =>
  new MerchantSettings({ id: 1, createdAt: epoch, updatedAt: epoch, ...values })

export const makeMerchant = (overrides: Partial<Merchant> = {}): Merchant =>
  new Merchant({
    id: MerchantId.make(7),
    createdAt: epoch,
    updatedAt: epoch,
    email: "ops@example.com",
    accountStatus: "active",
    clientId: "6f1c0c1e-8a5e-4a57-9e0c-3d1e2f3a4b5c",
    hashedClientId: "00",
    companyName: "Example Bet",
    country: "ET",
    currency: "ETB",
    phoneNumber: "",
    providerId: 1,
    publicKey: "-----BEGIN PUBLIC KEY-----",
    MerchantSettings: makeSettings(),
    isDefaultPassword: true,
    verifiedEmail: false,
    ...overrides
  })

/** Merchants in memory, e-mails unique regardless of case. */
export const merchantRepo = (initial: ReadonlyArray<Merchant> = []) =>
  Layer.effect(
    MerchantRepo,
    Effect.gen(function*() {
      const store = yield* Ref.make(new Map(initial.map((m) => [m.id, m])))
      const findById = (id: MerchantId) =>
        Ref.get(store).pipe(
          Effect.flatMap((all) => {
            const found = all.get(id)
            return found === undefined ? Effect.fail(new MerchantNotFound({ merchantId: id })) : Effect.succeed(found)
          })
        )
      return MerchantRepo.of({
        create: (input) =>
          Effect.gen(function*() {
            const all = yield* Ref.get(store)
            if ([...all.values()].some((m) => m.email.toLowerCase() === input.email.toLowerCase())) {
              return yield* new EmailTaken()
            }
            const merchant = makeMerchant({
              id: MerchantId.make(all.size + 1),
              email: input.email,
              companyName: input.companyName,
              country: input.country,
              currency: input.currency,
              providerId: input.providerId,
              clientId: input.clientId,
              hashedClientId: input.hashedClientId,
              publicKey: input.publicKey
            })
            yield* Ref.update(store, (m) => new Map(m).set(merchant.id, merchant))
            return merchant
          }),
        findById,
        secrets: (id) =>
          findById(id).pipe(
            Effect.as({ privateKey: Redacted.make("private"), encryptionKey: Redacted.make("whsec_x") })
          ),
        changeSettings: (id, change) =>
          Effect.gen(function*() {
            const merchant = yield* findById(id)
            const next = yield* Effect.fromResult(change(merchant.MerchantSettings))
            const settings = makeSettings(next)
            yield* Ref.update(store, (m) => new Map(m).set(id, new Merchant({ ...merchant, MerchantSettings: settings })))
            return settings
          }),
        changeStatus: (id, to) =>
          Effect.gen(function*() {
            const merchant = yield* findById(id)
            if (!canChangeStatus(merchant.accountStatus, to)) {
              return yield* new StatusChangeRefused({ from: merchant.accountStatus, to })
            }
            const next = new Merchant({ ...merchant, accountStatus: to })
            yield* Ref.update(store, (m) => new Map(m).set(id, next))
            return next
          })
      })
    })
  )

/** Keys in memory, by `prefix.secret.slug`; `revoked` keys fail like unknown ones. */
export const apiKeyRepo = (keys: ReadonlyMap<string, number>) =>
  Layer.succeed(
    ApiKeyRepo,
    ApiKeyRepo.of({
      authenticate: (key: ApiKey) => {
        const owner = keys.get(`${key.prefix}.${Redacted.value(key.secret)}.${key.slug}`)
        return owner === undefined
          ? Effect.fail(new Unauthorized({ detail: "unknown sv-api-key" }))
          : Effect.succeed(MerchantId.make(owner))
      },
      issue: () => Effect.die("not used"),
      revoke: () => Effect.succeed(false)
    })
  )

export const oddEven = new Game({
  id: "odd-even",
  name: "Odd Even",
  releaseDate: "2024-01-01",
  baseLaunchUrl: "https://games.example/play/odd-even",
  category: 1,
  imageUrl: "https://games.example/odd-even.png"
})

/** A catalogue in memory whose upsert and retire work. */
export const gameCatalog = (initial: ReadonlyArray<Game>) =>
  Layer.sync(GameCatalog, () => {
    const games = new Map(initial.map((g) => [g.id, g]))
    return GameCatalog.of({
      find: (id) => {
        const game = games.get(id)
        return game === undefined ? Effect.fail(new GameNotFound({ gameId: id })) : Effect.succeed(game)
      },
      list: (query) =>
        Effect.sync(() => {
          const needle = query.search?.toLowerCase()
          const matching = [...games.values()]
            .filter((g) => needle === undefined || query.searchFields.some((f) => g[f].toLowerCase().includes(needle)))
            .toSorted((a, b) => {
              const order = String(a[query.sortBy]).localeCompare(String(b[query.sortBy])) || a.id.localeCompare(b.id)
              return query.sortOrder === "ASC" ? order : -order
            })
          const start = (query.page - 1) * query.limit
          return { games: matching.slice(start, start + query.limit), total: matching.length }
        }),
      upsert: (id, game) =>
        Effect.sync(() => {
          const saved = new Game({ id, ...game })
          games.set(id, saved)
          return saved
        }),
      retire: (id) =>
        games.delete(id) ? Effect.void : Effect.fail(new GameNotFound({ gameId: id }))
    })
  })

export type DetailsAnswer = Effect.Effect<PlayerDetails, OperatorTimeout | OperatorBadResponse | PlayerRejected>

/** An operator whose Details URL gives `answer`; every call is recorded. */
export const operatorDetails = (calls: Array<DetailsRequest>, answer: (request: DetailsRequest) => DetailsAnswer) =>
  Layer.succeed(
    OperatorDetails,
    OperatorDetails.of({
      fetch: (_merchant, _url, request) => Effect.suspend(() => (calls.push(request), answer(request)))
    })
  )

/** A signer whose "token" is the JSON of the claims, so tests can read them back. */
export const jsonSigner = Layer.succeed(
  LaunchTokenSigner,
  LaunchTokenSigner.of({ sign: (claims) => Effect.succeed(JSON.stringify(claims)) })
)

export const sequentialIds = Layer.effect(
  Ids,
  Effect.gen(function*() {
    const counter = yield* Ref.make(0)
    return Ids.of({
      uuid: Ref.updateAndGet(counter, (n) => n + 1).pipe(
        Effect.map((n) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`)
      )
    })
  })
)

export const fixedCredentials = Layer.succeed(
  MerchantCredentials,
  MerchantCredentials.of({
    generate: Effect.succeed({
      clientId: "6f1c0c1e-8a5e-4a57-9e0c-3d1e2f3a4b5c",
      hashedClientId: "ab".repeat(32),
      password: Redacted.make("generated-password"),
      passwordHash: "scrypt$...",
      publicKey: "-----BEGIN PUBLIC KEY-----",
      privateKey: Redacted.make("-----BEGIN PRIVATE KEY-----"),
      encryptionKey: Redacted.make("whsec_AAAA"),
      otpToken: Redacted.make("123456"),
      otpHash: "sha256$..."
    })
  })
)

export const player = (currency: CurrencyCode | string, status?: "active" | "blocked") => (request: DetailsRequest) =>
  Effect.succeed(
    new PlayerDetails({ playerId: request.playerId, currency, balance: "100.00", ...(status ? { status } : {}) })
  )
