import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import { LaunchPolicy } from "../src/LaunchPolicy.ts"
import { LaunchClaims, LaunchRequest } from "../src/LaunchToken.ts"
import { CreateMerchantRequest, MerchantId } from "../src/Merchant.ts"
import { OperatorBadResponse, OperatorTimeout } from "../src/Operator.ts"
import { type DetailsRequest, PlayerRejected } from "../src/Player.ts"
import { ShopDetails, ShopRejected, type ShopRequest } from "../src/Shop.ts"
import { createMerchant } from "../src/usecases/CreateMerchant.ts"
import { generateLaunchUrl } from "../src/usecases/GenerateLaunchUrl.ts"
import { listGames } from "../src/usecases/ListGames.ts"
import { Game, defaultGameQuery } from "../src/Game.ts"
import * as D from "../testing/index.ts"

const KEY = `sv_live.${"a".repeat(43)}.merchant7`
const SUSPENDED_KEY = `sv_live.${"b".repeat(43)}.merchant8`
const keys = new Map([[KEY, 7], [SUSPENDED_KEY, 8]])
const withDetails = D.makeMerchant({ MerchantSettings: D.makeSettings({ userDetailsUrl: "https://op.example/details" }) })
const suspended = D.makeMerchant({ id: MerchantId.make(8), accountStatus: "suspended" })

const launchLayer = (answer: (r: DetailsRequest) => D.DetailsAnswer, calls: Array<DetailsRequest> = [], merchant = withDetails) =>
  Layer.mergeAll(
    D.merchantRepo([merchant, suspended]),
    D.apiKeyRepo(keys),
    D.gameCatalog([D.oddEven]),
    D.operatorDetails(calls, answer),
    D.jsonSigner,
    D.sequentialIds
  )

const request = (fields: Record<string, unknown> = {}) =>
  Schema.decodeUnknownSync(LaunchRequest)({ gameId: "odd-even", playerId: "p-1", sessionId: "s-1", ...fields })

const claimsOf = (url: string) => {
  const token = decodeURIComponent(new URL(url).searchParams.get("token") ?? "")
  return Schema.decodeUnknownSync(LaunchClaims)(JSON.parse(token))
}

const failureTag = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? Exit.findErrorOption(exit).pipe((o) => o._tag === "Some" ? o.value._tag : "defect") : "success"

describe("generateLaunchUrl", () => {
  it.effect("signs a URL with every claim of the contract for a real-mode launch", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(1_800_000_000_000)
      const calls: Array<DetailsRequest> = []
      const answer = yield* generateLaunchUrl(KEY, request({ disableGameLobby: true })).pipe(
        Effect.provide(launchLayer(D.player("ETB"), calls))
      )
      assert.isTrue(answer.success)
      assert.isTrue(answer.url.startsWith("https://games.example/play/odd-even?token="))
      const claims = claimsOf(answer.url)
      assert.deepStrictEqual({ ...claims }, {
        iss: "operator-gateway", aud: "launch", sub: "p-1", jti: "00000000-0000-4000-8000-000000000001",
        iat: 1_800_000_000, exp: 1_800_000_060, mid: 7, gid: "odd-even", sid: "s-1", mode: "real", cur: "ETB",
        lobby: false
      })
      assert.deepStrictEqual(calls, [{ playerId: "p-1", sessionId: "s-1", gameId: "odd-even", mode: "real" }])
    }))

  it.effect("uses the configured issuer and lifetime", () =>
    Effect.gen(function*() {
      const answer = yield* generateLaunchUrl(KEY, request()).pipe(
        Effect.provide(launchLayer(D.player("ETB"))),
        Effect.provideService(LaunchPolicy, { issuer: "https://gw.example", ttlSeconds: 30 })
      )
      const claims = claimsOf(answer.url)
      assert.strictEqual(claims.iss, "https://gw.example")
      assert.strictEqual(claims.exp - claims.iat, 30)
      assert.isTrue(claims.lobby)
    }))

  it.effect("demo launches never call the operator and use the merchant's currency", () =>
    Effect.gen(function*() {
      const calls: Array<DetailsRequest> = []
      const answer = yield* generateLaunchUrl(KEY, request({ mode: "demo" })).pipe(
        Effect.provide(launchLayer(() => Effect.die("called"), calls, D.makeMerchant()))
      )
      assert.strictEqual(calls.length, 0)
      assert.strictEqual(claimsOf(answer.url).mode, "demo")
      assert.strictEqual(claimsOf(answer.url).cur, "ETB")
    }))

  const failing: ReadonlyArray<[string, string | undefined, Record<string, unknown>, (r: DetailsRequest) => D.DetailsAnswer, string]> = [
    ["a missing key", undefined, {}, D.player("ETB"), "Unauthorized"],
    ["a malformed key", "not-a-key", {}, D.player("ETB"), "Unauthorized"],
    ["an unknown key", `sv_live.${"z".repeat(43)}.unknown1`, {}, D.player("ETB"), "Unauthorized"],
    ["a suspended merchant", SUSPENDED_KEY, {}, D.player("ETB"), "Forbidden"],
    ["an unknown game", KEY, { gameId: "nope" }, D.player("ETB"), "GameNotFound"],
    ["a blocked player", KEY, {}, D.player("ETB", "blocked"), "PlayerRejected"],
    ["an unknown player", KEY, {}, () => Effect.fail(new PlayerRejected({ detail: "unknown" })), "PlayerRejected"],
    ["a slow operator", KEY, {}, () => Effect.fail(new OperatorTimeout({ timeoutMs: 5000 })), "OperatorTimeout"],
    ["a broken operator", KEY, {}, () => Effect.fail(new OperatorBadResponse({ detail: "500" })), "OperatorBadResponse"],
    ["a player in another currency", KEY, {}, D.player("USD"), "CurrencyMismatch"],
    ["a currency parameter that differs", KEY, { currency: "USD" }, D.player("ETB"), "CurrencyMismatch"],
    ["a currency parameter that differs in demo mode", KEY, { currency: "USD", mode: "demo" }, D.player("ETB"), "CurrencyMismatch"]
  ]
  for (const [what, key, fields, answer, tag] of failing) {
    it.effect(`refuses ${what} with ${tag}`, () =>
      Effect.gen(function*() {
        const exit = yield* generateLaunchUrl(key, request(fields)).pipe(
          Effect.provide(launchLayer(answer)),
          Effect.exit
        )
        assert.strictEqual(failureTag(exit), tag)
      }))
  }

  it.effect("refuses a real-mode launch without a Details URL", () =>
    Effect.gen(function*() {
      const exit = yield* generateLaunchUrl(KEY, request()).pipe(
        Effect.provide(launchLayer(D.player("ETB"), [], D.makeMerchant())),
        Effect.exit
      )
      assert.strictEqual(failureTag(exit), "DetailsUrlNotSet")
    }))

  it.effect("checks in the contract's order: key before game, game before the operator", () =>
    Effect.gen(function*() {
      const calls: Array<DetailsRequest> = []
      const badKeyAndGame = yield* generateLaunchUrl("bad", request({ gameId: "nope" })).pipe(
        Effect.provide(launchLayer(D.player("ETB"), calls)),
        Effect.exit
      )
      assert.strictEqual(failureTag(badKeyAndGame), "Unauthorized")
      const badGame = yield* generateLaunchUrl(KEY, request({ gameId: "nope" })).pipe(
        Effect.provide(launchLayer(() => Effect.fail(new OperatorTimeout({ timeoutMs: 1 })), calls)),
        Effect.exit
      )
      assert.strictEqual(failureTag(badGame), "GameNotFound")
      assert.strictEqual(calls.length, 0)
      const slowAndWrongCurrency = yield* generateLaunchUrl(KEY, request({ currency: "USD" })).pipe(
        Effect.provide(launchLayer(() => Effect.fail(new OperatorTimeout({ timeoutMs: 1 })), calls)),
        Effect.exit
      )
      assert.strictEqual(failureTag(slowAndWrongCurrency), "OperatorTimeout")
    }))

  it("decodes the query with the contract's defaults and limits", () => {
    const decoded = request()
    assert.strictEqual(decoded.mode, "real")
    assert.strictEqual(decoded.disableGameLobby, false)
    const bad = Schema.decodeUnknownExit(LaunchRequest)
    assert.isTrue(Exit.isFailure(bad({ gameId: "g", playerId: "p", sessionId: "" })))
    assert.isTrue(Exit.isFailure(bad({ gameId: "g", playerId: "p".repeat(129), sessionId: "s" })))
    assert.isTrue(Exit.isFailure(bad({ gameId: "g", playerId: "p", sessionId: "s", mode: "fun" })))
    assert.isTrue(Exit.isFailure(bad({ gameId: "g", playerId: "p", sessionId: "s", currency: "etb" })))
  })
})

describe("createMerchant", () => {
  const layer = Layer.mergeAll(D.merchantRepo(), D.fixedCredentials)
  const body = (fields: Record<string, unknown> = {}) =>
    Schema.decodeUnknownSync(CreateMerchantRequest)({
      countryCodes: ["ET", "KE"], companyName: "Example Bet", email: "ops@example.com", providerId: 1, ...fields
    })

  it.effect("answers the seed's Merchant with country, currency and the generated secrets", () =>
    Effect.gen(function*() {
      const created = yield* createMerchant(body())
      assert.strictEqual(created.country, "ET")
      assert.strictEqual(created.currency, "ETB")
      assert.strictEqual(created.accountStatus, "active")
      assert.strictEqual(created.phoneNumber, "")
      assert.strictEqual(created.password, "generated-password")
      assert.strictEqual(created.otpToken, "123456")
      assert.isTrue(created.encryptionKey.startsWith("whsec_"))
      assert.strictEqual(created.isDefaultPassword, true)
      assert.strictEqual(created.verifiedEmail, false)
    }).pipe(Effect.provide(layer)))

  it.effect("refuses a second merchant with the same email in another case", () =>
    Effect.gen(function*() {
      yield* createMerchant(body())
      const exit = yield* createMerchant(body({ email: "OPS@Example.com" })).pipe(Effect.exit)
      assert.strictEqual(failureTag(exit), "EmailTaken")
    }).pipe(Effect.provide(layer)))

  it("refuses bodies the contract does not allow", () => {
    const bad = Schema.decodeUnknownExit(CreateMerchantRequest)
    const base = { countryCodes: ["ET"], companyName: "X", email: "a@b.co", providerId: 1 }
    for (const change of [{ countryCodes: [] }, { countryCodes: ["et"] }, { countryCodes: ["XX"] }, { companyName: "" },
      { email: "nope" }, { providerId: 0 }, { providerId: 1.5 }, { providerId: "1" }]) {
      assert.isTrue(Exit.isFailure(bad({ ...base, ...change })), JSON.stringify(change))
    }
  })
})

describe("listGames", () => {
  const games = Array.from({ length: 45 }, (_, i) =>
    new Game({ ...D.oddEven, id: `game-${String(i).padStart(2, "0")}`, name: i % 2 === 0 ? "Lucky" : "Plain" }))

  it.effect("pages through the catalogue with the seed's meta", () =>
    Effect.gen(function*() {
      const first = yield* listGames({ ...defaultGameQuery, sortBy: "id" })
      assert.strictEqual(first.data.length, 20)
      assert.strictEqual(first.data[0]?.id, "game-00")
      assert.deepStrictEqual({ ...first.meta }, {
        currentPage: 1, limit: 20, nextPage: 2, prevPage: 0, totalElements: 45, totalPage: 3
      })
      const lucky = yield* listGames({ ...defaultGameQuery, search: "LUCK", limit: 100 })
      assert.strictEqual(lucky.meta.totalElements, 23)
    }).pipe(Effect.provide(D.gameCatalog(games))))
})

describe("generateLaunchUrl with a retail shop (CONTRACT §11)", () => {
  const shopMerchant = D.makeMerchant({
    MerchantSettings: D.makeSettings({ userDetailsUrl: "https://op.example/details", shopDetailsUrl: "https://op.example/shops" })
  })
  const shop = (fields: Partial<ShopDetails> = {}) => (r: ShopRequest): D.ShopAnswer =>
    Effect.succeed(new ShopDetails({ shopId: r.shopId, name: "Bole Road Shop", currency: "ETB", status: "active", ...fields }))
  const launch = (answer: (r: ShopRequest) => D.ShopAnswer, fields: Record<string, unknown> = {}, merchant = shopMerchant) => {
    const shopCalls: Array<ShopRequest> = []
    const layer = Layer.mergeAll(
      D.merchantRepo([merchant]),
      D.apiKeyRepo(keys),
      D.gameCatalog([D.oddEven]),
      D.operatorDetails([], D.player("ETB"), answer, shopCalls),
      D.jsonSigner,
      D.sequentialIds
    )
    return generateLaunchUrl(KEY, request({ shopId: "shop-1", ...fields })).pipe(
      Effect.provide(layer),
      Effect.exit,
      Effect.map((exit) => ({ exit, shopCalls }))
    )
  }

  it.effect("asks the shop after the player and signs its name and stake limits into the token", () =>
    Effect.gen(function*() {
      const { exit, shopCalls } = yield* launch(shop({ minimumStake: "2", maximumStake: "150.5" }))
      assert.deepStrictEqual(shopCalls, [{ shopId: "shop-1", sessionId: "s-1", gameId: "odd-even", mode: "real" }])
      if (!Exit.isSuccess(exit)) return assert.fail("the launch failed")
      const claims = claimsOf(exit.value.url)
      assert.deepStrictEqual([claims.shop, claims.shn, claims.smin, claims.smax], ["shop-1", "Bole Road Shop", "2.00", "150.50"])
    }))

  const refusals: ReadonlyArray<[string, (r: ShopRequest) => D.ShopAnswer, string]> = [
    ["a blocked shop", shop({ status: "blocked" }), "ShopRejected"],
    ["an unknown shop (4xx)", () => Effect.fail(new ShopRejected({ detail: "404" })), "ShopRejected"],
    ["a silent shop URL", () => Effect.fail(new OperatorTimeout({ timeoutMs: 5000, url: "shopDetailsUrl" })), "OperatorTimeout"],
    ["a shop in another currency", shop({ currency: "USD" }), "CurrencyMismatch"],
    ["a stake limit finer than the currency", shop({ minimumStake: "0.001" }), "OperatorBadResponse"]
  ]
  for (const [what, answer, tag] of refusals) {
    it.effect(`refuses ${what} with ${tag}`, () =>
      Effect.gen(function*() {
        assert.strictEqual(failureTag((yield* launch(answer)).exit), tag)
      }))
  }

  it.effect("no shopDetailsUrl is ShopDetailsUrlNotSet and asks no shop; a demo launch asks no one", () =>
    Effect.gen(function*() {
      const unset = yield* launch(shop(), {}, withDetails)
      assert.strictEqual(failureTag(unset.exit), "ShopDetailsUrlNotSet")
      const demo = yield* launch(shop(), { mode: "demo" })
      assert.deepStrictEqual(demo.shopCalls, [])
      if (!Exit.isSuccess(demo.exit)) return assert.fail("the demo launch failed")
      assert.strictEqual(claimsOf(demo.exit.value.url).shop, "shop-1")
    }))
})
