import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Game, GameId } from "../src/Game.ts"
import { GameCatalog } from "../src/ports/GameCatalog.ts"
import { openSession } from "../src/usecases/OpenSession.ts"
import { playRound } from "../src/usecases/PlayRound.ts"
import * as D from "../testing/index.ts"

const settings = { userDetailsUrl: "https://op.example/details", webhookUrl: "https://op.example/wallet" }
const merchant = D.makeMerchant({ MerchantSettings: D.makeSettings(settings) })
const megaTen = new Game({ ...D.oddEven, id: "mega-ten", name: "Mega Ten" })

const claims = D.makeClaims


describe("a retired game (CONTRACT §6)", () => {
  for (const mode of ["real", "demo"] as const) {
    it.effect(`${mode}: no round of it in any session opened before, no debit begun; no link of it redeems`, () => {
      const log: D.LedgerLog = { begun: [], settled: [], refused: [], failed: [] }
      return Effect.gen(function*() {
        const noLobby = yield* openSession(D.launchToken(claims({ mode, lobby: false })))
        const lobby = yield* openSession(D.launchToken(claims({ mode, gid: "mega-ten" })))
        const pending = D.launchToken(claims({ mode }))
        yield* (yield* GameCatalog).retire(GameId.make("odd-even"))
        const round = (token: string, gameId?: string, selection: unknown = "odd") =>
          playRound(token, { stake: "1.00", selection, ...(gameId === undefined ? {} : { gameId }) }).pipe(Effect.exit)
        assert.strictEqual(D.errorTag(yield* round(noLobby.sessionToken)), "GameRetired")
        assert.strictEqual(D.errorTag(yield* round(lobby.sessionToken, "odd-even")), "GameRetired")
        assert.strictEqual(D.errorTag(yield* round(lobby.sessionToken, "no-such-game")), "GameNotFound")
        assert.deepStrictEqual(log.begun, [], "no money moved")
        assert.strictEqual(D.errorTag(yield* openSession(pending).pipe(Effect.exit)), "GameRetired")
        assert.strictEqual(D.errorTag(yield* round(lobby.sessionToken, "mega-ten", [1, 2, 3])), "success")
      }).pipe(Effect.provide(Layer.mergeAll(
        D.merchantRepo([merchant]),
        D.operatorDetails([], D.player("ETB")),
        D.sequentialIds,
        D.jsonVerifier,
        Layer.mergeAll(D.ledger(log), D.freeRounds).pipe(Layer.provideMerge(D.sessionRepo)),
        D.wallet,
        D.gameCatalog([D.oddEven, megaTen]),
        D.fixedDraw(7)
      )))
    })
  }
})
