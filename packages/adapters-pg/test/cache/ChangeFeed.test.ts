import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, PubSub } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as ChangeFeed from "../../src/cache/ChangeFeed.ts"
import * as PgTest from "../../testing/PgTest.ts"

describe("ChangeFeed.parse", () => {
  it("reads <topic>:<version>:<key>, `*` meaning the whole topic, and ignores anything else", () => {
    assert.deepStrictEqual(ChangeFeed.parse("games:7:odd-even"), { change: { topic: "games", key: "odd-even" }, version: 7n })
    assert.deepStrictEqual(ChangeFeed.parse("api_keys:12:*"), { change: { topic: "api_keys" }, version: 12n })
    for (const bad of ["", "games", "games:x:id", "wallets:1:x", "games:1:", "games:-1:x"]) {
      assert.isUndefined(ChangeFeed.parse(bad), bad)
    }
  })
})

describe("ChangeFeed", () => {
  layer(PgTest.layer, { excludeTestServices: true })((it) => {
    it.effect("announces each changed row at commit, and a bulk change as the whole topic", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const feed = yield* ChangeFeed.make()
        const changes = yield* feed.subscribe
        yield* sql`UPDATE games SET name = 'Odd or Even' WHERE id = 'odd-even'`
        assert.deepStrictEqual(yield* PubSub.take(changes), { topic: "games", key: "odd-even" })
        yield* sql`UPDATE games SET updated_at = now()`
        assert.deepStrictEqual(yield* PubSub.take(changes), { topic: "games" })
        yield* sql`UPDATE games SET updated_at = now() WHERE id = 'no-such-game'`
        yield* sql`UPDATE merchants SET updated_at = now() WHERE id = -1`
        yield* sql`INSERT INTO api_keys (slug, merchant_id, prefix, secret_hash)
          SELECT 'feedslug0001', id, 'sv_live', '\\x00' FROM merchants LIMIT 0`
        yield* sql`UPDATE games SET name = 'Odd Even' WHERE id = 'odd-even'`
        assert.deepStrictEqual(yield* PubSub.take(changes), { topic: "games", key: "odd-even" }, "statements that change nothing say nothing")
      }).pipe(Effect.scoped))

    it.effect("a version that moved without a notification is caught by the version check, as a change of the whole topic", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const feed = yield* ChangeFeed.make({ checkEvery: "50 millis" })
        const changes = yield* feed.subscribe
        yield* sql`UPDATE gateway_versions SET version = version + 1 WHERE topic = 'merchants'`
        assert.deepStrictEqual(yield* PubSub.take(changes).pipe(Effect.timeout("2 seconds")), { topic: "merchants" })
      }).pipe(Effect.scoped))
  })
})
