import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import * as BuiltinEngine from "../src/games/BuiltinEngine.ts"

const engine = BuiltinEngine.make(() => 17)
const refusal = (gameId: string, selection: string) =>
  Effect.map(Effect.exit(engine.validate(gameId, selection)), (exit) =>
    Exit.isSuccess(exit) ? "ok" : Exit.findErrorOption(exit).pipe((o) => o._tag === "Some" ? o.value.message : "defect"))

describe("BuiltinEngine", () => {
  it.effect("odd-even accepts exactly \"odd\" and \"even\"", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* refusal("odd-even", "odd"), "ok")
      assert.strictEqual(yield* refusal("odd-even", "even"), "ok")
      for (const bad of ["ODD", "odd ", "red", "", "7"]) {
        assert.strictEqual(yield* refusal("odd-even", bad), "selection: must be one of \"odd\", \"even\"", bad)
      }
    }))

  it.effect("the other built-in games are not playable yet; unknown ones have no engine", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* refusal("lotto", "1"), "gameId: the game 'lotto' is not playable yet")
      assert.strictEqual(yield* refusal("mega-eleven", "1"), "gameId: the game 'mega-eleven' has no engine")
    }))

  it.effect("pays 1.95x the stake (rounded down) on the drawn parity, nothing otherwise", () =>
    Effect.gen(function*() {
      const fixed = (n: number) => BuiltinEngine.make(() => n)
      assert.deepStrictEqual(yield* fixed(17).play("odd-even", "odd", 1001n), { outcome: "17 odd", payout: 1951n })
      assert.deepStrictEqual(yield* fixed(17).play("odd-even", "even", 1001n), { outcome: "17 odd", payout: 0n })
      assert.deepStrictEqual(yield* fixed(36).play("odd-even", "even", 100n), { outcome: "36 even", payout: 195n })
      assert.deepStrictEqual(yield* fixed(1).play("odd-even", "even", 100n), { outcome: "1 odd", payout: 0n })
    }))
})
