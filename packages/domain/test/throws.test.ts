import { assert, describe, it } from "@effect/vitest"
import { createHmac } from "node:crypto"
import { builtinGames } from "../src/BuiltinGames.ts"
import * as Draws from "../src/games/Draws.ts"
import * as Games from "../src/games/Games.ts"
import { throwOf } from "../src/games/Throws.ts"

const block = (seed: string, nonce: number) => (index: number) =>
  new Uint8Array(createHmac("sha256", seed).update(Draws.message("client", nonce, index)).digest())

describe("the throws the page recomputes", () => {
  it("are, for every built-in game, the very draws its engine plays: same fields, same values, for 200 nonces", () => {
    assert.sameMembers(Games.definitions.map((d) => d.id), builtinGames.map((g) => g.id))
    for (const { draw: spec, rules } of Games.definitions) {
      const draw = throwOf(spec)
      for (let nonce = 0; nonce < 200; nonce++) {
        const thrown = draw(Draws.make(block("server-seed", nonce)))
        const { outcome } = rules.play(rules.examples[0], 100n, Draws.make(block("server-seed", nonce)), 9750)
        assert.isAbove(Object.keys(thrown).length, 0)
        for (const [field, value] of Object.entries(thrown)) assert.deepStrictEqual(outcome[field], value, `${rules.id} ${field} at ${nonce}`)
      }
    }
  })
})
