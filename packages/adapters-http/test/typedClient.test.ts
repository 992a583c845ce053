import { assert, describe, it } from "@effect/vitest"
import { build } from "esbuild"
import { Effect } from "effect"
import { fileURLToPath } from "node:url"
import { FetchHttpClient } from "effect/http"
import { Client } from "@gateway/client"
import { Country, Merchant } from "@gateway/domain"
import { start, token } from "./support.ts"

/**
 * The typed client other teams use: `@gateway/client` (the contract, no server
 * code, and `Client.make`, effect's `HttpApiClient` of it), against the real
 * HttpApi served on 127.0.0.1. test/clientPackage.test.ts runs it installed
 * from its tarball against the real server.
 */
describe("Client.make from @gateway/client", () => {
  it.effect("creates a merchant with a bearer token, issues a key and lists games with typed answers and typed errors", () =>
    Effect.gen(function*() {
      const server = yield* Effect.acquireRelease(Effect.promise(() => start()), (s) => Effect.promise(() => s.dispose()))
      const admin = yield* Client.make(server.url, { bearer: yield* Effect.promise(() => token()) })
      const request = new Merchant.CreateMerchantRequest({
        countryCodes: [Country.CountryCode.make("ET")],
        companyName: "Typed Co",
        email: "typed@example.com",
        providerId: 1
      })
      const merchant = yield* admin.merchants.create({ payload: request })
      assert.strictEqual(merchant.currency, "ETB")
      assert.strictEqual(merchant.accountStatus, "active")
      assert.match(merchant.encryptionKey, /^whsec_/)

      const taken = yield* Effect.flip(admin.merchants.create({ payload: request }))
      assert.strictEqual(taken._tag, "Problem")
      if (taken._tag === "Problem") assert.deepStrictEqual([taken.status, taken.code], [409, "EMAIL_TAKEN"])

      const issued = yield* admin.merchants.issueApiKey({ params: { id: merchant.id }, payload: { prefix: "sv_live" } })
      const operator = yield* Client.make(server.url, { apiKey: issued.apiKey })
      const games = yield* operator.games.list({ query: { page: 1, limit: 2, sortBy: "id", sortOrder: "ASC" } })
      assert.deepStrictEqual(games.data.map((game) => game.id), ["lotto", "mega-ten"])
      assert.strictEqual(games.meta.totalElements, 3)

      const anonymous = yield* Client.make(server.url)
      const refused = yield* Effect.flip(anonymous.games.list({ query: { page: 1, limit: 20, sortBy: "name", sortOrder: "ASC" } }))
      assert.strictEqual(refused._tag, "Problem")
      if (refused._tag === "Problem") assert.deepStrictEqual([refused.status, refused.code], [401, "UNAUTHORIZED"])
    }).pipe(Effect.scoped, Effect.provide(FetchHttpClient.layer)))

  it.effect("the package pulls in the contract and the client only: no handlers, middleware, caches, page or routes", () =>
    Effect.gen(function*() {
      const entry = fileURLToPath(import.meta.resolve("@gateway/client"))
      const bundled = yield* Effect.promise(() =>
        build({ entryPoints: [entry], bundle: true, write: false, metafile: true, platform: "node", format: "esm", packages: "external" }))
      const ours = Object.keys(bundled.metafile.inputs)
      assert.isTrue(ours.some((path) => path.endsWith("client/src/api/Api.ts")), ours.join())
      assert.deepStrictEqual(ours.filter((path) => !/client\/src\/(api\/)?[A-Za-z]+\.ts$/.test(path)), [])
    }))
})
