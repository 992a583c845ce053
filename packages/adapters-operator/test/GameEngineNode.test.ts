import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { GameEngine } from "@gateway/domain/ports/GameEngine"
import * as GameEngineNode from "../src/crypto/GameEngineNode.ts"

describe("GameEngineNode", () => {
  it.effect("draws 1..36 and wins about half the time with the real random source", () =>
    Effect.gen(function*() {
      const engine = yield* GameEngine
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
    }).pipe(Effect.provide(GameEngineNode.layer)))
})
