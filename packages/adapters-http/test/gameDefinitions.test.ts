import { Schema } from "effect"
import { describe, expect, it, vi } from "vitest"
import { defineGame } from "@gateway/domain/games/GameDefinition"

/** A seventh game, added to the list of definitions as docs/games.md "Adding a game" says: its module, and the list. */
vi.mock("@gateway/domain/games/Definitions", async (importOriginal) => {
  const { definitions } = await importOriginal<typeof import("@gateway/domain/games/Definitions")>()
  const [oddEven] = definitions
  const coinFlip = defineGame({
    id: "coin-flip",
    name: "Coin Flip",
    category: 1,
    profitField: "coinFlipGameProfit",
    rules: { ...oddEven.rules, id: "coin-flip", name: "Coin Flip" },
    draw: { throw: "number36" },
    controls: { kind: "choices", choices: [["odd", "v-odd"], ["even", "v-even"]], hint: "makePick", stage: "ball" },
    art: { from: "#000000", to: "#ffffff", body: "<circle cx=\"160\" cy=\"76\" r=\"40\" fill=\"#fbbf24\"/>" }
  })
  return { definitions: [...definitions, coinFlip] }
})

const { builtinGames } = await import("@gateway/domain/BuiltinGames")
const Games = await import("@gateway/domain/games/Games")
const { MerchantSettings, SettingsChange, settingsFieldNames } = await import("@gateway/domain/MerchantSettings")
const { gameImage } = await import("../src/page/GameImages.ts")
const { pageGames } = await import("../src/page/PageGames.ts")

describe("a game added to the list of definitions", () => {
  it("is in the catalogue seed, the settings, the RTP table, the rules, the images and the page's registry", () => {
    expect(builtinGames.at(-1)).toEqual({ id: "coin-flip", name: "Coin Flip", category: 1 })
    expect(settingsFieldNames.at(-1)).toBe("coinFlipGameProfit")
    expect(settingsFieldNames.slice(0, 3)).toEqual(["agentPercentProfit", "callbackUrl", "colorGameProfit"])
    const settings = Schema.decodeUnknownSync(MerchantSettings)({
      id: 1, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", coinFlipGameProfit: 5
    })
    expect(Games.rtpFor("coin-flip", settings)).toBe(9500)
    expect(Games.rtpFor("odd-even", settings)).toBe(9750)
    expect(() => Schema.decodeUnknownSync(SettingsChange)({ coinFlipGameProfit: 40 })).toThrow(/1 to 15/)
    expect(Games.rulesOf("coin-flip")?.name).toBe("Coin Flip")
    expect(gameImage("coin-flip.svg")).toContain(">Coin Flip</text>")
    const page = JSON.parse(pageGames())
    expect(page["coin-flip"]).toEqual({
      draw: { throw: "number36" },
      controls: { kind: "choices", choices: [["odd", "v-odd"], ["even", "v-even"]], hint: "makePick", stage: "ball" }
    })
    expect(Object.keys(page)).toEqual(builtinGames.map((game) => game.id))
  })
})
