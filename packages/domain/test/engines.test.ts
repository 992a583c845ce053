import { assert, describe, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { execFileSync } from "node:child_process"
import { createHash, createHmac, randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { isDeepStrictEqual } from "node:util"
import { builtinGames } from "../src/BuiltinGames.ts"
import * as Draws from "../src/games/Draws.ts"
import * as Games from "../src/games/Games.ts"
import { choose, multiplierScale } from "../src/games/PayTable.ts"
import * as Rtp from "../src/games/Rtp.ts"
import { maxStakeMinor } from "../src/Money.ts"
import type { FairRandom } from "../src/ports/FairRandom.ts"

const INT8_MAX = 2n ** 63n - 1n
const RTPS = [8500, 9750, 9900]
const COLOURS = ["red", "green", "blue", "yellow", "white", "pink"]

const fair: FairRandom["Service"] = {
  hmacSha256: (key, message) => new Uint8Array(createHmac("sha256", key).update(message).digest()),
  sha256Hex: (text) => createHash("sha256").update(text).digest("hex"),
  newSeed: () => randomBytes(32).toString("hex")
}

const rulesOf = (gameId: string): Games.GameRules => {
  const rules = Games.rulesOf(gameId)
  if (rules === undefined) throw new Error(`no rules for ${gameId}`)
  return rules
}

const decoded = (rules: Games.GameRules, input: unknown): unknown => Result.getOrThrow(rules.decodeSelection(input))

const multiplierOf = (text: string): bigint => BigInt(text.replace(".", ""))

/** Draws answering given values, in order: `int` from `ints`, `sample` from `samples`. */
const scripted = (ints: ReadonlyArray<number>, samples: ReadonlyArray<ReadonlyArray<number>> = []): Draws.Draws => {
  let i = 0
  let s = 0
  return {
    int: (n) => {
      const x = ints[i++]
      if (x === undefined || x >= n) throw new Error(`unscripted int(${n})`)
      return x
    },
    sample: (k, n) => {
      const x = samples[s++]
      if (x === undefined || x.length !== k || x.some((v) => v >= n)) throw new Error(`unscripted sample(${k}, ${n})`)
      return x
    }
  }
}

// ---------------------------------------------------------------------------
// Every outcome of a round, with how many of the equally likely ones it stands for

interface Case {
  readonly ways: bigint
  readonly draws: () => Draws.Draws
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

const numberGames: Record<string, { total: number; drawn: number; maxPicks: number }> = {
  "lotto": { total: 49, drawn: 6, maxPicks: 6 },
  "mega-ten": { total: 80, drawn: 20, maxPicks: 10 }
}

/** Picks of k numbers spread over the range, ending at the top number: [total, …]. */
const picksOf = (total: number, k: number) => range(k).map((i) => total - Math.floor((i * total) / k))

/**
 * The cases of a selection. Dice and single numbers: every sequence of
 * `int` answers. Number draws: for h hits, the pick's first h numbers and
 * drawn − h others, standing for C(k, h) × C(total − k, drawn − h) of the
 * C(total, drawn) equally likely draws (hypergeometric, counted from the
 * draw's side where the engine counts from the pick's).
 */
const casesOf = (gameId: string, selection: unknown): { readonly outcomes: bigint; readonly cases: ReadonlyArray<Case> } => {
  const dice = (count: number, faces: number): ReadonlyArray<Case> =>
    range(faces ** count).map((code) => ({
      ways: 1n,
      draws: () => scripted(range(count).map((i) => Math.floor(code / faces ** (count - 1 - i)) % faces))
    }))
  switch (gameId) {
    case "odd-even":
    case "single":
      return { outcomes: 36n, cases: dice(1, 36) }
    case "under-over":
      return { outcomes: 36n, cases: dice(2, 6) }
    case "color-game":
      return { outcomes: 216n, cases: dice(3, 6) }
  }
  const game = numberGames[gameId]
  if (game === undefined || !Array.isArray(selection)) throw new Error(gameId)
  const picks: ReadonlyArray<number> = selection
  const others = range(game.total).map((i) => i + 1).filter((n) => !picks.includes(n))
  return {
    outcomes: choose(game.total, game.drawn),
    cases: range(Math.min(picks.length, game.drawn) + 1).map((h) => ({
      ways: choose(picks.length, h) * choose(game.total - picks.length, game.drawn - h),
      draws: () => scripted([], [[...others.slice(0, game.drawn - h), ...picks.slice(0, h)].map((n) => n - 1).reverse()])
    }))
  }
}

/** Selections covering every pay-table row of a game (and the edges of its ranges). */
const selectionsOf = (gameId: string): ReadonlyArray<unknown> => {
  switch (gameId) {
    case "odd-even":
      return ["odd", "even"]
    case "under-over":
      return ["under", "seven", "over"]
    case "color-game":
      return COLOURS
    case "single":
      return [1, 17, 36]
  }
  const game = numberGames[gameId]
  if (game === undefined) throw new Error(gameId)
  return range(game.maxPicks).map((i) => picksOf(game.total, i + 1))
}

/**
 * The exact expected payout of a stake, as a fraction, by playing every
 * case; at a stake of 100.00 every payout must be a published multiplier.
 */
const expectedPayout = (rules: Games.GameRules, selection: unknown, stake: bigint, rtpBp: number) => {
  const { cases, outcomes } = casesOf(rules.id, selection)
  const published = new Set(rules.payouts(rtpBp).map((line) => multiplierOf(line.multiplier)))
  let numerator = 0n
  let ways = 0n
  for (const c of cases) {
    const { payout } = rules.play(decoded(rules, selection), stake, c.draws(), rtpBp)
    if (stake === 10_000n && payout !== 0n) assert.isTrue(published.has(payout), `${rules.id} paid ${payout}`)
    numerator += c.ways * payout
    ways += c.ways
  }
  assert.strictEqual(ways, outcomes, `${rules.id}: the cases cover every outcome`)
  return { numerator, denominator: outcomes }
}

// ---------------------------------------------------------------------------
// The verification script of docs/games.md, copied as a function

/** docs/games.md, "Verify a round by hand": the draws of a round, recomputed with node:crypto alone. */
const docDraws = (serverSeed: string, clientSeed: string, nonce: number, game: string): unknown => {
  let block = 0
  let bytes = Buffer.alloc(0)
  let offset = 0
  const word = () => {
    if (offset === bytes.length) {
      const message = block === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${block}`
      bytes = createHmac("sha256", serverSeed).update(message).digest()
      block += 1
      offset = 0
    }
    offset += 4
    return bytes.readUInt32BE(offset - 4)
  }
  const int = (n: number): number => {
    const limit = Math.floor(2 ** 32 / n) * n
    for (;;) {
      const x = word()
      if (x < limit) return x % n
    }
  }
  const sample = (k: number, n: number) => {
    const deck = [...Array(n).keys()]
    for (let j = 0; j < k; j++) {
      const r = j + int(n - j)
      const t = deck[j] ?? 0
      deck[j] = deck[r] ?? 0
      deck[r] = t
    }
    return deck.slice(0, k)
  }
  const colours = ["red", "green", "blue", "yellow", "white", "pink"]
  const draws: Record<string, () => unknown> = {
    "odd-even": () => int(36) + 1,
    "single": () => int(36) + 1,
    "under-over": () => [int(6) + 1, int(6) + 1],
    "color-game": () => [0, 1, 2].map(() => colours[int(6)]),
    "lotto": () => sample(6, 49).map((x) => x + 1),
    "mega-ten": () => sample(20, 80).map((x) => x + 1)
  }
  return draws[game]?.()
}

/** The numbers an outcome shows, as the verification script prints them. */
const drawsShown = (gameId: string, outcome: Games.GameOutcome): unknown =>
  gameId === "odd-even" || gameId === "single"
    ? outcome["number"]
    : gameId === "under-over" || gameId === "color-game"
    ? outcome["dice"]
    : outcome["drawn"]

// ---------------------------------------------------------------------------
// A fast seeded PRNG (xoshiro128**) feeding 32-byte blocks, for the simulation

const xoshiro = (seed: number) => {
  let s0 = seed | 0 || 1
  let s1 = 0x9e3779b9
  let s2 = 0x243f6a88
  let s3 = 0xb7e15162
  const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k))
  const next = () => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0
    const t = s1 << 9
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 11)
    return result
  }
  for (let i = 0; i < 16; i++) next()
  return next
}

const blockOf = (next: () => number) => (): Uint8Array => {
  const bytes = new Uint8Array(32)
  for (let i = 0; i < 32; i += 4) {
    const x = next()
    bytes[i] = x >>> 24
    bytes[i + 1] = x >>> 16
    bytes[i + 2] = x >>> 8
    bytes[i + 3] = x
  }
  return bytes
}

/**
 * Draws that draw from `source` once and answer the same again after each
 * `rewound()`: every ticket of a round sees the round's one draw.
 */
const replaying = (source: Draws.Draws) => {
  const ints: Array<number> = []
  const samples: Array<ReadonlyArray<number>> = []
  let i = 0
  let s = 0
  const draws: Draws.Draws = {
    int: (n) => {
      if (i === ints.length) ints.push(source.int(n))
      return ints[i++] ?? -1
    },
    sample: (k, n) => {
      if (s === samples.length) samples.push(source.sample(k, n))
      return samples[s++] ?? []
    }
  }
  return {
    rewound: (): Draws.Draws => {
      i = 0
      s = 0
      return draws
    }
  }
}

/**
 * `rounds` rounds, each one draw from fresh PRNG blocks settling the
 * round's tickets (stake 100.00 each). Answers the mean return per round and
 * its standard error.
 */
const simulate = (rules: Games.GameRules, rounds: number, tickets: (round: number) => ReadonlyArray<unknown>, seed: number) => {
  const fresh = blockOf(xoshiro(seed))
  const stake = 10_000n
  let sum = 0
  let sumSquares = 0
  for (let round = 0; round < rounds; round++) {
    const blocks: Array<Uint8Array> = []
    const draws = replaying(Draws.make((i) => blocks[i] ??= fresh()))
    const selections = tickets(round)
    let paid = 0n
    for (const selection of selections) paid += rules.play(selection, stake, draws.rewound(), Rtp.defaultRtpBp).payout
    const back = Number(paid) / (10_000 * selections.length)
    sum += back
    sumSquares += back * back
  }
  const mean = sum / rounds
  return { mean, standardError: Math.sqrt((sumSquares / rounds - mean * mean) / rounds) }
}

// ---------------------------------------------------------------------------

describe("game rules", () => {
  it("cover the six built-in games, in catalogue order, with their names", () => {
    assert.deepStrictEqual(Games.allRules.map((r) => [r.id, r.name]), builtinGames.map((g) => [g.id, g.name]))
    for (const game of builtinGames) assert.strictEqual(Games.rulesOf(game.id)?.id, game.id)
    assert.strictEqual(Games.rulesOf("mega-eleven"), undefined)
    for (const rules of Games.allRules) assert.isAbove(rules.description.length, 40, rules.id)
  })

  it("publish the classic multipliers at the default RTP of 97.50 %", () => {
    const at = (gameId: string) => rulesOf(gameId).payouts(Rtp.defaultRtpBp).map((l) => l.multiplier)
    assert.deepStrictEqual(at("odd-even"), ["1.9500", "1.9500"])
    assert.deepStrictEqual(at("under-over"), ["2.3400", "5.8500", "2.3400"])
    assert.deepStrictEqual(at("single"), ["35.1000"])
    assert.deepStrictEqual(at("color-game"), ["2.0546", "3.0819", "10.2731"])
    assert.deepStrictEqual(rulesOf("color-game").payouts(9750)[1], {
      condition: "2 of 3 dice show your colour",
      multiplier: "3.0819",
      hits: 2
    })
    assert.deepStrictEqual(rulesOf("lotto").payouts(9750).at(-1), {
      condition: "6 of your 6 numbers are drawn",
      multiplier: "5105.3822",
      picks: 6,
      hits: 6
    })
    assert.deepStrictEqual(rulesOf("mega-ten").payouts(9750).at(-1)?.multiplier, "4480.0223")
  })

  it("every row's exact expected multiplier is in (RTP − 0.0001, RTP], at every RTP from 85.00 to 99.00 %", () => {
    for (const rules of Games.allRules) {
      for (let rtp = Rtp.minRtpBp; rtp <= Rtp.maxRtpBp; rtp++) {
        const rows = rules.expectedMultiplier(rtp)
        assert.isAbove(rows.length, 0)
        for (const { denominator, numerator, variant } of rows) {
          // numerator / denominator ≤ rtp / 10000  and  > (rtp − 1) / 10000
          const scaled = numerator * multiplierScale
          assert.isTrue(scaled <= BigInt(rtp) * denominator, `${rules.id} ${variant} at ${rtp}: above the RTP`)
          assert.isTrue(scaled > BigInt(rtp - 1) * denominator, `${rules.id} ${variant} at ${rtp}: 0.0001 or more below`)
        }
      }
    }
  })

  it("the exact expected payout of play over every outcome is the published RTP: within 1 minor unit below at a stake of 100.00", () => {
    for (const rules of Games.allRules) {
      for (const rtp of RTPS) {
        const rows = new Map(rules.expectedMultiplier(rtp).map((row) => [row.variant, row]))
        for (const selection of selectionsOf(rules.id)) {
          for (const stake of [10_000n, 1n, 12_345n, maxStakeMinor]) {
            const { denominator, numerator } = expectedPayout(rules, selection, stake, rtp)
            const at = `${rules.id} ${JSON.stringify(selection)} stake ${stake} at ${rtp}`
            // E = numerator / denominator minor units; RTP × stake = rtp × stake / 10000
            assert.isTrue(numerator * 10_000n <= denominator * BigInt(rtp) * stake, `${at}: above RTP × stake`)
            const floor = stake === 10_000n ? BigInt(rtp) * stake - 10_000n : BigInt(rtp) * stake - stake - 10_000n
            assert.isTrue(numerator * 10_000n > denominator * floor, `${at}: too far below RTP × stake`)
            if (stake !== 10_000n) continue
            const row = Array.isArray(selection)
              ? rows.get(`${selection.length} ${selection.length === 1 ? "pick" : "picks"}`)
              : rows.get(String(selection)) ?? [...rows.values()][0]
            if (row === undefined) throw new Error(at)
            // at a stake of 10000 minor units the payout is the multiplier itself: E equals the row's expectation
            assert.strictEqual(numerator * row.denominator, row.numerator * 10_000n * denominator, at)
          }
        }
      }
    }
  })

  it("outcomes show the draws and the hits; a loss pays 0", () => {
    const play = (gameId: string, selection: unknown, draws: Draws.Draws) =>
      rulesOf(gameId).play(decoded(rulesOf(gameId), selection), 1_001n, draws, 9750)
    assert.deepStrictEqual(play("odd-even", "odd", scripted([16])), {
      outcome: { number: 17, parity: "odd", summary: "17 odd" },
      payout: 1_951n
    })
    assert.deepStrictEqual(play("odd-even", "even", scripted([16])).payout, 0n)
    assert.deepStrictEqual(play("under-over", "seven", scripted([2, 3])), {
      outcome: { dice: [3, 4], total: 7, result: "seven", summary: "3 + 4 = 7 seven" },
      payout: 5_855n
    })
    assert.deepStrictEqual(play("color-game", "red", scripted([0, 5, 0])), {
      outcome: { dice: ["red", "pink", "red"], matches: 2, summary: "red pink red, 2 matches" },
      payout: 3_084n
    })
    assert.deepStrictEqual(play("single", 36, scripted([35])), { outcome: { number: 36, summary: "36 drawn" }, payout: 35_135n })
    assert.deepStrictEqual(play("lotto", [49, 1, 7], scripted([], [[6, 0, 48, 30, 20, 10]])), {
      outcome: { drawn: [7, 1, 49, 31, 21, 11], hits: [1, 7, 49], summary: "3 of 3 hit: 1 7 49" },
      payout: 102_868n
    })
    const keno = play("mega-ten", [5, 6], scripted([], [range(20).map((i) => 79 - i)]))
    assert.deepStrictEqual(keno, {
      outcome: { drawn: range(20).map((i) => 80 - i), hits: [], summary: "0 of 2 hit" },
      payout: 0n
    })
  })

  it("no multiplier is above 9000× at any RTP, and the largest stake's largest payout fits a PostgreSQL bigint", () => {
    // multipliers grow with the RTP, so the highest RTP (and anything above it, clamped) has the largest
    let largest = 0n
    for (const rules of Games.allRules) {
      for (const rtp of [...RTPS, Rtp.maxRtpBp, 10_000]) {
        for (const line of rules.payouts(rtp)) {
          assert.match(line.multiplier, /^[1-9][0-9]*\.[0-9]{4}$/, `${rules.id} at ${rtp}: ${line.multiplier}`)
          const m = multiplierOf(line.multiplier)
          assert.isTrue(m <= 9_000n * 10_000n, `${rules.id} ${line.condition} at ${rtp}: ${line.multiplier}`)
          if (m > largest) largest = m
        }
      }
    }
    assert.isTrue((maxStakeMinor * largest) / 10_000n <= INT8_MAX)
    assert.isTrue((maxStakeMinor * 9_000n) <= INT8_MAX)
  })

  it("the same seeds give the same round; pinned vectors per game (any change to the byte method fails here)", () => {
    const serverSeed = "3f2a9c1e5b7d40f68e2c4a6b8d0f1e3a5c7b9d1f2e4a6c8b0d2f4e6a8c1b3d5f"
    const selections: Record<string, unknown> = {
      "odd-even": "odd",
      "under-over": "seven",
      "color-game": "red",
      "lotto": [3, 14, 25, 36, 41, 49],
      "mega-ten": [1, 12, 23, 34, 45, 56, 67, 78, 5, 80],
      "single": 17
    }
    const pinned: Record<string, unknown> = PINNED
    for (const rules of Games.allRules) {
      const selection = decoded(rules, selections[rules.id])
      const round = (nonce: number) =>
        rules.play(selection, 10_000n, Draws.forRound(fair, serverSeed, "lucky-7", nonce), Rtp.defaultRtpBp)
      const first = round(0)
      assert.deepStrictEqual(round(0), first, rules.id)
      assert.deepStrictEqual(
        { summary: first.outcome.summary, draws: drawsShown(rules.id, first.outcome), payout: first.payout },
        pinned[rules.id],
        rules.id
      )
      const shown = range(6).map((nonce) => JSON.stringify(drawsShown(rules.id, round(nonce).outcome)))
      assert.isAbove(new Set(shown).size, 1, `${rules.id}: other nonces, other rounds`)
    }
  })

  it("the verification script of docs/games.md recomputes the engine's draws", () => {
    const serverSeed = fair.newSeed()
    for (const rules of Games.allRules) {
      const selection = decoded(rules, rules.examples[0])
      for (let nonce = 0; nonce < 40; nonce++) {
        const clientSeed = `player-${nonce % 3}`
        const played = rules.play(selection, 100n, Draws.forRound(fair, serverSeed, clientSeed, nonce), 9750)
        assert.deepStrictEqual(docDraws(serverSeed, clientSeed, nonce, rules.id), drawsShown(rules.id, played.outcome))
      }
    }
  })

  it("docs/games.md's script, run as printed, prints the engine's draws", () => {
    const doc = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "games.md"), "utf8")
    const script = /```js\n(\/\/ verify-round\.mjs[\s\S]*?)```/.exec(doc)?.[1]
    if (script === undefined) throw new Error("docs/games.md has no verify-round.mjs block")
    const dir = mkdtempSync(join(tmpdir(), "verify-round-"))
    try {
      const file = join(dir, "verify-round.mjs")
      writeFileSync(file, script)
      const serverSeed = fair.newSeed()
      // one game per way of drawing: dice, colours, a sample (the copied function above covers all six)
      for (const rules of ["under-over", "color-game", "mega-ten"].map(rulesOf)) {
        const selection = decoded(rules, rules.examples[0])
        const played = rules.play(selection, 100n, Draws.forRound(fair, serverSeed, "lucky-7", 5), 9750)
        const printed = execFileSync(process.execPath, [file, serverSeed, "lucky-7", "5", rules.id], { encoding: "utf8" })
        assert.deepStrictEqual(JSON.parse(printed), drawsShown(rules.id, played.outcome), rules.id)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("a simulation of 1,000,000 rounds per game, at RTP 97.50 %", () => {
  // disjoint picks, fixed for the run: 1 pick, 2 picks, … (lotto 1…21, mega-ten 1…55)
  const disjoint = (gameId: string, rows: number) =>
    range(rows).map((k) => decoded(rulesOf(gameId), range(k + 1).map((i) => (k * (k + 1)) / 2 + i + 1)))
  const lottoTickets = disjoint("lotto", 6)
  const kenoTickets = disjoint("mega-ten", 10)
  /**
   * The tickets each round settles against its one draw. One ticket for the
   * dice games; single, lotto and Mega Ten would need far more rounds for a
   * 0.5 pp bound with one ticket (a ticket's standard deviation is up to 7×
   * the stake), so their rounds settle several tickets on the same draw.
   */
  const portfolios: Record<string, (round: number) => ReadonlyArray<unknown>> = {
    "odd-even": (r) => [r % 2 === 0 ? "odd" : "even"],
    "under-over": (r) => [["under", "seven", "over"][r % 3]],
    "color-game": (r) => [COLOURS[r % 6]],
    // 12 of the 36 numbers, a residue class mod 3: one round in 3 wins
    "single": (r) => range(12).map((i) => (r % 3) + 1 + 3 * i),
    "lotto": () => lottoTickets,
    "mega-ten": () => kenoTickets
  }

  for (const [index, rules] of Games.allRules.entries()) {
    it(`${rules.id} returns 97.50 % within 0.5 percentage points`, { timeout: 60_000 }, () => {
      const tickets = portfolios[rules.id]
      if (tickets === undefined) throw new Error(rules.id)
      const { mean, standardError } = simulate(rules, 1_000_000, tickets, 0x5eed + index)
      console.log(`${rules.id}: returned ${(mean * 100).toFixed(4)} % (standard error ${(standardError * 100).toFixed(3)} pp)`)
      assert.isBelow(3 * standardError, 0.005, `${rules.id}: the simulation is too noisy for a 0.5 pp bound`)
      assert.isBelow(Math.abs(mean - 0.975), 0.005, `${rules.id}: returned ${mean}`)
    })
  }
})

describe("selections", () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  const validators = new Map(Games.allRules.map((rules) => [rules.id, ajv.compile(rules.selectionSchema)]))
  const jsonSchemaAccepts = (gameId: string, input: unknown): boolean => validators.get(gameId)?.(input) === true

  it("every example is accepted, by the decoder and by the JSON Schema (draft 2020-12)", () => {
    for (const rules of Games.allRules) {
      assert.strictEqual(rules.selectionSchema["$schema"], "https://json-schema.org/draft/2020-12/schema")
      assert.isAbove(rules.examples.length, 1)
      assert.deepStrictEqual(rules.selectionSchema["examples"], rules.examples)
      for (const example of rules.examples) {
        assert.isTrue(Result.isSuccess(rules.decodeSelection(example)), `${rules.id} ${JSON.stringify(example)}`)
        assert.isTrue(jsonSchemaAccepts(rules.id, example), `${rules.id} ${JSON.stringify(example)}`)
      }
    }
  })

  it("refuses junk with ValidationFailed on field selection and a clear detail", () => {
    const junk: ReadonlyArray<unknown> = [undefined, null, true, 0, -1, 1.5, Number.NaN, Infinity, "", "17", "ODD", "odd ",
      "purple", {}, { selection: "odd" }, [], [[1]], [1, 1], [0], [81], ["1"], [1.5], [Number.NaN],
      range(11).map((i) => i + 1), 37, 2 ** 53, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]
    for (const rules of Games.allRules) {
      for (const input of junk) {
        const result = rules.decodeSelection(input)
        if (Result.isSuccess(result)) {
          assert.isTrue(jsonSchemaAccepts(rules.id, input), `${rules.id} accepted ${JSON.stringify(input)}`)
          continue
        }
        assert.strictEqual(result.failure._tag, "ValidationFailed")
        assert.strictEqual(result.failure.field, "selection")
        assert.match(result.failure.detail, /^must be /)
      }
    }
    const odd = rulesOf("odd-even").decodeSelection("ODD")
    assert.strictEqual(
      Result.isFailure(odd) ? odd.failure.message : "",
      "selection: must be \"odd\" or \"even\" (Expected \"odd\" | \"even\")"
    )
    const lotto = rulesOf("lotto").decodeSelection([1, 50])
    assert.strictEqual(
      Result.isFailure(lotto) ? lotto.failure.detail : "",
      "must be an array of 1 to 6 distinct whole numbers from 1 to 49 (at [1]: Expected a value between 1 and 49)"
    )
  })

  it("refuses a huge array at once, before looking at its items", () => {
    const huge = Array.from({ length: 1_000_000 }, () => 1)
    const started = performance.now()
    const result = rulesOf("mega-ten").decodeSelection(huge)
    assert.isTrue(Result.isFailure(result) && result.failure.detail.endsWith("(got 1000000 items)"))
    assert.isBelow(performance.now() - started, 50)
  })

  const nearMiss = fc.oneof(
    fc.array(fc.integer({ min: -2, max: 82 }), { maxLength: 12 }),
    fc.uniqueArray(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 11 }),
    fc.integer({ min: -2, max: 40 }),
    fc.constantFrom("odd", "even", "under", "seven", "over", ...COLOURS, "Red", "odd ", ""),
    fc.double(),
    fc.jsonValue()
  )

  it("the decoder and the JSON Schema agree on arbitrary JSON, and every refusal is ValidationFailed on selection", () => {
    for (const rules of Games.allRules) {
      fc.assert(fc.property(nearMiss, (input) => {
        const result = rules.decodeSelection(input)
        const text = JSON.stringify(input)
        if (text !== undefined && isDeepStrictEqual(JSON.parse(text), input)) {
          assert.strictEqual(Result.isSuccess(result), jsonSchemaAccepts(rules.id, input), JSON.stringify(input))
        }
        if (Result.isFailure(result)) assert.strictEqual(result.failure.field, "selection")
      }), { numRuns: 2_000 })
    }
  })

  it("refuses anything at all that is not a selection, without throwing", () => {
    for (const rules of Games.allRules) {
      fc.assert(fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true }), (input) => {
        const result = rules.decodeSelection(input)
        if (Result.isFailure(result)) assert.strictEqual(result.failure.field, "selection")
        else assert.isTrue(jsonSchemaAccepts(rules.id, input))
      }), { numRuns: 500 })
    }
  })
})

describe("RTP", () => {
  it("comes from <game>GameProfit: default 2.5, clamped to 1…15, rounded half up to 2 decimals", () => {
    assert.strictEqual(Games.rtpFor("odd-even", undefined), 9750)
    assert.strictEqual(Games.rtpFor("odd-even", {}), 9750)
    assert.strictEqual(Games.rtpFor("lotto", { lottoGameProfit: 5 }), 9500)
    assert.strictEqual(Games.rtpFor("lotto", { oddEvenGameProfit: 5 }), 9750)
    assert.strictEqual(Games.rtpFor("mega-ten", { megaTenGameProfit: 0 }), 9900)
    assert.strictEqual(Games.rtpFor("single", { singleGameProfit: 100 }), 8500)
    assert.strictEqual(Games.rtpFor("color-game", { colorGameProfit: 2.345 }), 9765)
    assert.strictEqual(Games.rtpFor("under-over", { underOverGameProfit: 2.344 }), 9766)
    assert.strictEqual(Games.rtpFor("under-over", { underOverGameProfit: 14.996 }), 8500)
    assert.strictEqual(Games.rtpFor("under-over", { underOverGameProfit: 1e-7 }), 9900)
    assert.strictEqual(Games.rtpFor("no-such-game", { oddEvenGameProfit: 5 }), 9750)
    assert.strictEqual(Rtp.profitBp(Number.NaN), 250)
    assert.strictEqual(Rtp.clampRtpBp(10_000), 9900)
    assert.strictEqual(Rtp.clampRtpBp(0), 8500)
    assert.deepStrictEqual(Games.profitFields["mega-ten"], "megaTenGameProfit")
  })

  it("formats basis points as a percentage with 2 decimals", () => {
    assert.strictEqual(Games.formatRtp(9750), "97.50")
    assert.strictEqual(Games.formatRtp(8500), "85.00")
    assert.strictEqual(Games.formatRtp(9905), "99.05")
  })

  it("GameProfit accepts 1 to 15 and refuses the rest", () => {
    const accepts = (value: unknown) => Result.isSuccess(Schema.decodeUnknownResult(Rtp.GameProfit)(value))
    for (const ok of [1, 2.5, 9.99, 15]) assert.isTrue(accepts(ok), String(ok))
    for (const bad of [0, 0.99, 15.01, 100, -1, Number.NaN, Infinity, "2.5", null]) assert.isFalse(accepts(bad), String(bad))
  })

  it("plays outside the range at its clamped bound", () => {
    for (const rules of Games.allRules) {
      assert.deepStrictEqual(rules.payouts(10_000), rules.payouts(9900))
      assert.deepStrictEqual(rules.payouts(0), rules.payouts(8500))
    }
  })
})

/** Pinned rounds: serverSeed 3f2a…3d5f, clientSeed "lucky-7", nonce 0, stake 100.00, RTP 97.50 %. */
const PINNED = {
  "odd-even": { summary: "12 even", draws: 12, payout: 0n },
  "under-over": { summary: "6 + 3 = 9 over", draws: [6, 3], payout: 0n },
  "color-game": { summary: "pink blue blue, 0 matches", draws: ["pink", "blue", "blue"], payout: 0n },
  "lotto": { summary: "0 of 6 hit", draws: [17, 16, 7, 8, 33, 26], payout: 0n },
  "mega-ten": {
    summary: "4 of 10 hit: 5 12 23 67",
    draws: [76, 14, 5, 59, 4, 7, 68, 64, 71, 12, 39, 33, 30, 37, 23, 79, 67, 49, 62, 10],
    payout: 17_920n
  },
  "single": { summary: "12 drawn", draws: 12, payout: 0n }
}
