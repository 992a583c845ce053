import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import * as GameEngine from "../src/GameEngine.ts"

const engine = GameEngine.make()
const refusal = (gameId: string, selection: string) =>
  Effect.map(Effect.exit(engine.validate(gameId, selection)), (exit) =>
    Exit.isSuccess(exit) ? "ok" : Exit.findErrorOption(exit).pipe((o) => o._tag === "Some" ? o.value.message : "defect"))

describe("GameEngine", () => {
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
      const fixed = (n: number) => GameEngine.make(() => n)
      assert.deepStrictEqual(yield* fixed(17).play("odd-even", "odd", 1001n), { outcome: "17 odd", payout: 1951n })
      assert.deepStrictEqual(yield* fixed(17).play("odd-even", "even", 1001n), { outcome: "17 odd", payout: 0n })
      assert.deepStrictEqual(yield* fixed(36).play("odd-even", "even", 100n), { outcome: "36 even", payout: 195n })
      assert.deepStrictEqual(yield* fixed(1).play("odd-even", "even", 100n), { outcome: "1 odd", payout: 0n })
    }))

  it.effect("draws 1..36 and wins about half the time with the real random source", () =>
    Effect.gen(function*() {
      const rounds = 20_000
      let wins = 0
      const seen = new Set<number>()
      for (let i = 0; i < rounds; i++) {
        const { outcome, payout } = yield* engine.play("odd-even", "even", 100n)
        const drawn = Number(outcome.split(" ")[0])
        seen.add(drawn)
        assert.include([0n, 195n], payout)
        assert.strictEqual(payout > 0n, drawn % 2 === 0)
        if (payout > 0n) wins++
      }
      assert.deepStrictEqual([...seen].sort((a, b) => a - b), Array.from({ length: 36 }, (_, i) => i + 1))
      assert.approximately(wins / rounds, 0.5, 0.02)
    }))
})
