import { assert, describe, layer } from "@effect/vitest"
import type { GameQuery, GameSortField, SortOrder } from "@gateway/domain/Game"
import { Game, GameId, GameNotFound } from "@gateway/domain/Game"
import { GameCatalog } from "@gateway/domain/ports/GameCatalog"
import { Effect, Exit, Schedule } from "effect"
import * as GameCatalogPg from "../src/GameCatalogPg.ts"
import { SqlClient } from "effect/sql/SqlClient"
import { publicBaseUrl, reposLayer } from "./fixtures.ts"

const query = (overrides: Partial<GameQuery>): GameQuery => ({
  page: 1,
  limit: 100,
  sortBy: "name",
  sortOrder: "ASC",
  searchFields: ["name", "id"],
  ...overrides
})

const game = (id: string, name: string, releaseDate: string, category: number) =>
  [GameId.make(id), {
    name,
    releaseDate,
    category,
    baseLaunchUrl: `https://games.example/${id}`,
    imageUrl: `https://games.example/${id}.png`
  }] as const

const keyOf = (g: Game, sortBy: GameSortField): string | number =>
  sortBy === "name" ? g.name.toLowerCase() : sortBy === "releaseDate" ? g.releaseDate : sortBy === "category" ? g.category : g.id

/** The order the contract promises: the sort key, then id, both in the requested direction, compared byte-wise. */
const expectedOrder = (games: ReadonlyArray<Game>, sortBy: GameSortField, order: SortOrder) =>
  games.toSorted((a, b) => {
    const [x, y] = [keyOf(a, sortBy), keyOf(b, sortBy)]
    const c = x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
    return order === "ASC" ? c : -c
  }).map((g) => g.id)

const sortFields: ReadonlyArray<GameSortField> = ["name", "releaseDate", "category", "id"]
const orders: ReadonlyArray<SortOrder> = ["ASC", "DESC"]

describe("GameCatalogPg", () => {
  layer(reposLayer, { excludeTestServices: true })((it) => {
    it.effect("lists the built-in games with launch URLs under PUBLIC_BASE_URL", () =>
      Effect.gen(function*() {
        const catalog = yield* GameCatalog
        const page = yield* catalog.list(query({ sortBy: "id" }))
        const builtins = ["color-game", "lotto", "mega-ten", "odd-even", "single", "under-over"]
        assert.deepStrictEqual(page.games.map((g) => g.id).filter((id) => builtins.includes(id)), builtins)
        const oddEven = yield* catalog.find("odd-even")
        assert.strictEqual(oddEven.name, "Odd Even")
        assert.strictEqual(oddEven.baseLaunchUrl, `${publicBaseUrl}/play/odd-even`)
        assert.strictEqual(oddEven.imageUrl, `${publicBaseUrl}/static/games/odd-even.svg`, "absolute, for operators' sites")
        assert.instanceOf(yield* Effect.flip(catalog.find("no-such-game")), GameNotFound)
      }))

    it.effect("searches case-insensitively and takes %, _ and \\ literally", () =>
      Effect.gen(function*() {
        const catalog = yield* GameCatalog
        for (
          const [id, name] of [
            ["lit-pct", "Win 100% Now"],
            ["lit-pct-miss", "Win 1000 Now"],
            ["lit-us", "Under_Score"],
            ["lit-us-miss", "UnderXScore"],
            ["lit-bs", "Back\\Slash"],
            ["lit-bs-miss", "BackSlash"]
          ] as const
        ) yield* catalog.upsert(...game(id, name, "2024-05-05", 9))
        const names = (search: string) =>
          catalog.list(query({ search, searchFields: ["name"] })).pipe(Effect.map((p) => p.games.map((g) => g.id)))
        assert.deepStrictEqual(yield* names("100%"), ["lit-pct"])
        assert.deepStrictEqual(yield* names("r_s"), ["lit-us"])
        assert.deepStrictEqual(yield* names("k\\s"), ["lit-bs"])
        assert.deepStrictEqual(yield* names("%"), ["lit-pct"])
        assert.deepStrictEqual(yield* names("ODD EV"), ["odd-even"])
        const byId = yield* catalog.list(query({ search: "LIT-US", searchFields: ["id"] }))
        assert.deepStrictEqual(byId.games.map((g) => g.id), ["lit-us", "lit-us-miss"])
        assert.strictEqual(byId.total, 2)
        const byIdOnly = yield* catalog.list(query({ search: "Odd Even", searchFields: ["id"] }))
        assert.strictEqual(byIdOnly.total, 0)
      }))

    it.effect("sorts by every field in both directions with id as tie-break, and pages with totals", () =>
      Effect.gen(function*() {
        const catalog = yield* GameCatalog
        const games = [
          game("sort-e", "beta", "2024-02-01", 2),
          game("sort-a", "Beta", "2024-01-01", 2),
          game("sort-c", "alpha", "2024-02-01", 1),
          game("sort-b", "gamma", "2023-12-31", 2),
          game("sort-d", "alpha", "2024-01-01", 3),
          game("sort-f", "Delta", "2024-02-01", 1)
        ]
        const stored: Array<Game> = []
        for (const g of games) stored.push(yield* catalog.upsert(...g))
        for (const sortBy of sortFields) {
          for (const sortOrder of orders) {
            const expected = expectedOrder(stored, sortBy, sortOrder)
            const seen: Array<string> = []
            for (const page of [1, 2, 3]) {
              const result = yield* catalog.list(
                query({ search: "sort-", searchFields: ["id"], sortBy, sortOrder, page, limit: 2 })
              )
              assert.strictEqual(result.total, 6)
              seen.push(...result.games.map((g) => g.id))
            }
            assert.deepStrictEqual(seen, expected, `${sortBy} ${sortOrder}`)
          }
        }
        const past = yield* catalog.list(query({ search: "sort-", searchFields: ["id"], page: 9, limit: 2 }))
        assert.deepStrictEqual(past, { games: [], total: 6 })
      }))

    it.effect("retires games so they are neither found nor listed, and an upsert brings them back", () =>
      Effect.gen(function*() {
        const catalog = yield* GameCatalog
        const [id, fields] = game("retire-me", "Retire Me", "2024-03-03", 4)
        const created = yield* catalog.upsert(id, fields)
        assert.deepStrictEqual(created, new Game({ id, ...fields }))
        yield* catalog.retire(id)
        assert.instanceOf(yield* Effect.flip(catalog.find(id)), GameNotFound)
        assert.instanceOf(yield* Effect.flip(catalog.retire(id)), GameNotFound)
        assert.strictEqual((yield* catalog.list(query({ search: "retire-me" }))).total, 0)
        const back = yield* catalog.upsert(id, { ...fields, name: "Retired No More" })
        assert.strictEqual(back.name, "Retired No More")
        assert.strictEqual((yield* catalog.find(id)).name, "Retired No More")
        assert.strictEqual((yield* catalog.list(query({ search: "retire-me" }))).total, 1)
        yield* catalog.retire(GameId.make("lotto"))
        assert.instanceOf(yield* Effect.flip(catalog.find("lotto")), GameNotFound)
        const lotto = yield* catalog.upsert(GameId.make("lotto"), {
          name: "Lotto",
          releaseDate: "2024-01-01",
          category: 3,
          baseLaunchUrl: `${publicBaseUrl}/play/lotto`,
          imageUrl: "/static/games/lotto.svg"
        })
        assert.strictEqual(lotto.baseLaunchUrl, `${publicBaseUrl}/play/lotto`)
        const sql = yield* SqlClient
        assert.deepStrictEqual(yield* sql`SELECT base_launch_url FROM games WHERE id = 'lotto'`, [{ base_launch_url: null }])
      }))

    it.effect("orders and pages 2,500 games inserted by another writer, once the change feed announced them", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const catalog = yield* GameCatalog
        yield* sql`
          INSERT INTO games (id, name, release_date, base_launch_url, category, image_url)
          SELECT 'bulk-' || lpad(i::text, 5, '0'), 'Bulk Game ' || (i % 97),
            '2024-' || lpad((i % 12 + 1)::text, 2, '0') || '-01', 'https://games.example/bulk', i % 7, '/img.png'
          FROM generate_series(1, 2500) AS i`
        const listed = yield* catalog.list(query({ search: "bulk game", searchFields: ["name"] })).pipe(
          Effect.repeat({ until: (page) => page.total === 2500, schedule: Schedule.spaced("10 millis"), times: 100 })
        )
        assert.strictEqual(listed.total, 2500)
        const bulk = Array.from({ length: 2500 }, (_, n) => {
          const i = n + 1
          return new Game({
            id: `bulk-${String(i).padStart(5, "0")}`,
            name: `Bulk Game ${i % 97}`,
            releaseDate: `2024-${String((i % 12) + 1).padStart(2, "0")}-01`,
            baseLaunchUrl: "https://games.example/bulk",
            category: i % 7,
            imageUrl: "/img.png"
          })
        })
        for (const sortBy of sortFields) {
          for (const sortOrder of orders) {
            const expected = expectedOrder(bulk, sortBy, sortOrder)
            for (const page of [1, 13, 25]) {
              const result = yield* catalog.list(query({ search: "bulk game", searchFields: ["name"], sortBy, sortOrder, page }))
              assert.strictEqual(result.total, 2500)
              assert.deepStrictEqual(
                result.games.map((g) => g.id),
                expected.slice((page - 1) * 100, page * 100),
                `${sortBy} ${sortOrder} page ${page}`
              )
            }
          }
        }
        const all = yield* catalog.list(query({ page: 26 }))
        assert.isAtLeast(all.total, 2506)
      }))

    it.effect("an upsert or a retirement through this instance is in its catalogue when it answers; through another, once the feed says so", () =>
      Effect.gen(function*() {
        const here = yield* GameCatalog
        const there = yield* GameCatalogPg.make(publicBaseUrl)
        const within1s = <A, E>(read: Effect.Effect<A, E>, done: (exit: Exit.Exit<A, E>) => boolean) =>
          Effect.exit(read).pipe(Effect.repeat({ until: done, schedule: Schedule.spaced("10 millis"), times: 100 }))
        const [id, fields] = game("fresh-1", "Fresh One", "2026-11-01", 2)
        yield* here.upsert(id, fields)
        assert.strictEqual((yield* here.find("fresh-1")).name, "Fresh One")
        assert.isTrue(Exit.isSuccess(yield* within1s(there.find("fresh-1"), Exit.isSuccess)))
        yield* there.retire(id)
        assert.instanceOf(yield* Effect.flip(there.find("fresh-1")), GameNotFound)
        assert.isTrue(Exit.isFailure(yield* within1s(here.find("fresh-1"), Exit.isFailure)))
        const listed = yield* here.list(query({ search: "fresh one" }))
        assert.strictEqual(listed.total, 0)
      }).pipe(Effect.scoped))

    it.effect("a change in a transaction that rolls back (an audited change whose entry failed) never reaches the catalogue; one that commits does at once", () =>
      Effect.gen(function*() {
        const catalog = yield* GameCatalog
        const sql = yield* SqlClient
        const rollback = <A, E, R>(change: Effect.Effect<A, E, R>) =>
          sql.withTransaction(Effect.andThen(change, Effect.fail("the audit entry failed" as const))).pipe(Effect.flip)
        const [id, fields] = game("rolled-back-1", "Rolled Back", "2026-11-02", 1)
        assert.strictEqual(yield* rollback(catalog.upsert(id, fields)), "the audit entry failed")
        assert.instanceOf(yield* Effect.flip(catalog.find("rolled-back-1")), GameNotFound)
        assert.strictEqual((yield* catalog.list(query({ search: "rolled back" }))).total, 0)

        yield* sql.withTransaction(catalog.upsert(id, fields))
        assert.strictEqual((yield* catalog.find("rolled-back-1")).name, "Rolled Back")
        assert.strictEqual(yield* rollback(catalog.retire(id)), "the audit entry failed")
        assert.strictEqual((yield* catalog.find("rolled-back-1")).name, "Rolled Back")
        const renamed = { ...fields, name: "Renamed" }
        assert.strictEqual(yield* rollback(catalog.upsert(id, renamed)), "the audit entry failed")
        assert.strictEqual((yield* catalog.find("rolled-back-1")).name, "Rolled Back")
        yield* sql.withTransaction(catalog.retire(id))
        assert.instanceOf(yield* Effect.flip(catalog.find("rolled-back-1")), GameNotFound)
      }))
  })
})
