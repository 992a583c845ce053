import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Schema } from "effect"
import { Game, GameId } from "../src/Game.ts"
import { type LaunchRequest, LaunchClaims } from "../src/LaunchToken.ts"
import { MerchantId } from "../src/Merchant.ts"
import { OperatorBadResponse, OperatorTimeout } from "../src/Operator.ts"
import { type DetailsRequest, PlayerDetails, PlayerRejected } from "../src/Player.ts"
import { ApiKeyRepo } from "../src/ports/ApiKeyRepo.ts"
import { GameCatalog } from "../src/ports/GameCatalog.ts"
import { generateLaunchUrl } from "../src/usecases/GenerateLaunchUrl.ts"
import {
  type DetailsAnswer,
  jsonSigner,
  makeApiKeyRepo,
  makeGameCatalog,
  makeMerchant,
  makeSettings,
  merchantRepo,
  oddEven,
  operatorDetails,
  sequentialIds
} from "../testing/index.ts"

/*
 * A model-based property test of the launch rules (CONTRACT §3), written
 * against the domain's exported doubles: a random world (the key's state,
 * the game, the mode, the `currency` parameter, whether the merchant has a
 * Details URL and what the operator answers) is launched, and the outcome
 * must be what a small reference model of the contract says: the first
 * failing check in the order key → game → (real mode) Details URL →
 * currency rule → token, with the operator asked exactly when every earlier
 * check passed and the mode is real.
 */

const KeyState = Schema.Literals(["missing", "malformed", "unknown", "revoked", "suspended", "valid", "test"])
const GameState = Schema.Literals(["listed", "unknown", "retired"])
const Currency = Schema.Literals(["absent", "ETB", "USD"])
const Answer = Schema.Literals(["ETB player", "USD player", "blocked", "404", "500", "garbage", "too slow"])

type World = {
  readonly key: typeof KeyState.Type
  readonly game: typeof GameState.Type
  readonly mode: "real" | "demo"
  readonly currency: typeof Currency.Type
  readonly detailsUrl: boolean
  readonly answer: typeof Answer.Type
}

type Outcome =
  | "Unauthorized"
  | "Forbidden"
  | "GameNotFound"
  | "DetailsUrlNotSet"
  | "PlayerRejected"
  | "OperatorBadResponse"
  | "OperatorTimeout"
  | "CurrencyMismatch"
  | "LaunchUrl"

/** The contract, read as plainly as possible; the merchant's currency is ETB. */
const model = (w: World): { readonly outcome: Outcome; readonly operatorAsked: boolean } => {
  if (w.key === "missing" || w.key === "malformed" || w.key === "unknown" || w.key === "revoked") {
    return { outcome: "Unauthorized", operatorAsked: false }
  }
  if (w.key === "suspended") return { outcome: "Forbidden", operatorAsked: false }
  if (w.key === "test" && w.mode === "real") return { outcome: "Forbidden", operatorAsked: false }
  if (w.game !== "listed") return { outcome: "GameNotFound", operatorAsked: false }
  const param = w.currency === "absent" ? undefined : w.currency
  let player: string | undefined
  if (w.mode === "real") {
    if (!w.detailsUrl) return { outcome: "DetailsUrlNotSet", operatorAsked: false }
    switch (w.answer) {
      case "404":
      case "blocked":
        return { outcome: "PlayerRejected", operatorAsked: true }
      case "500":
      case "garbage":
        return { outcome: "OperatorBadResponse", operatorAsked: true }
      case "too slow":
        return { outcome: "OperatorTimeout", operatorAsked: true }
      case "ETB player":
        player = "ETB"
        break
      case "USD player":
        player = "USD"
    }
  }
  const resolved = param ?? player
  const mismatch = (resolved !== undefined && resolved !== "ETB") ||
    (param !== undefined && player !== undefined && param !== player)
  return { outcome: mismatch ? "CurrencyMismatch" : "LaunchUrl", operatorAsked: w.mode === "real" }
}

const validKey = `sv_live.${"V".repeat(43)}.validkey01`
const suspendedKey = `sv_live.${"S".repeat(43)}.suspended1`
const revokedKey = `sv_live.${"R".repeat(43)}.revoked001`
const testKey = `sv_test.${"T".repeat(43)}.testkey001`

const header = (key: World["key"]): string | undefined => {
  switch (key) {
    case "missing":
      return undefined
    case "malformed":
      return "sv_live.not-a-key"
    case "unknown":
      return `sv_live.${"U".repeat(43)}.unknown001`
    case "revoked":
      return revokedKey
    case "suspended":
      return suspendedKey
    case "valid":
      return validKey
    case "test":
      return testKey
  }
}

const operatorAnswer = (answer: World["answer"]) => (request: DetailsRequest): DetailsAnswer => {
  switch (answer) {
    case "ETB player":
    case "USD player":
      return Effect.succeed(new PlayerDetails({ playerId: request.playerId, currency: answer.slice(0, 3), balance: "5.00" }))
    case "blocked":
      return Effect.succeed(new PlayerDetails({ playerId: request.playerId, currency: "ETB", balance: "5.00", status: "blocked" }))
    case "404":
      return Effect.fail(new PlayerRejected({ detail: "the operator's Details URL rejected the player (HTTP 404)" }))
    case "500":
      return Effect.fail(new OperatorBadResponse({ detail: "the operator's Details URL answered HTTP 500" }))
    case "garbage":
      return Effect.fail(new OperatorBadResponse({ detail: "a body that is not the player's details" }))
    case "too slow":
      return Effect.fail(new OperatorTimeout({ timeoutMs: 5000 }))
  }
}

/** The world as the doubles hold it: keys (one revoked), merchants 7 (active) and 8 (suspended), a catalogue. */
const ports = (w: World, calls: Array<DetailsRequest>) =>
  Effect.gen(function*() {
    const keys = makeApiKeyRepo([[validKey, 7], [suspendedKey, 8], [revokedKey, 7], [testKey, 7]])
    yield* keys.service.revoke(MerchantId.make(7), "revoked001")
    const catalog = makeGameCatalog([oddEven, new Game({ ...oddEven, id: "retired-1" })])
    yield* catalog.retire(GameId.make("retired-1"))
    const settings = makeSettings(w.detailsUrl ? { userDetailsUrl: "https://operator.example/details" } : {})
    return Layer.mergeAll(
      Layer.succeed(ApiKeyRepo, keys.service),
      Layer.succeed(GameCatalog, catalog),
      merchantRepo([
        makeMerchant({ MerchantSettings: settings }),
        makeMerchant({ id: MerchantId.make(8), email: "suspended@example.com", accountStatus: "suspended" })
      ]),
      operatorDetails(calls, operatorAnswer(w.answer)),
      jsonSigner,
      sequentialIds
    )
  })

const gameIds = { listed: "odd-even", unknown: "no-such-game", retired: "retired-1" } as const

const decodeClaims = Schema.decodeUnknownSync(Schema.fromJsonString(LaunchClaims))

/** Launches in `world` and checks the outcome against the model. */
const check = (world: World) =>
  Effect.gen(function*() {
    const calls: Array<DetailsRequest> = []
    const request: LaunchRequest = {
      gameId: gameIds[world.game],
      playerId: "player-1",
      sessionId: "session-1",
      mode: world.mode,
      disableGameLobby: false,
      ...(world.currency === "absent" ? {} : { currency: world.currency })
    }
    const exit = yield* Effect.exit(
      generateLaunchUrl(header(world.key), request).pipe(Effect.provide(yield* ports(world, calls)))
    )
    const expected = model(world)
    const outcome = Exit.isSuccess(exit)
      ? "LaunchUrl"
      : Exit.findErrorOption(exit).pipe((error) => error._tag === "Some" ? error.value._tag : "defect")
    assert.strictEqual(outcome, expected.outcome, JSON.stringify(world))
    assert.strictEqual(calls.length, expected.operatorAsked ? 1 : 0, `operator asked: ${JSON.stringify(world)}`)
    if (Exit.isSuccess(exit)) {
      const claims = decodeClaims(new URL(exit.value.url).searchParams.get("token") ?? "")
      assert.strictEqual(claims.cur, "ETB")
      assert.strictEqual(claims.mode, world.mode)
      assert.strictEqual(claims.gid, "odd-even")
      assert.strictEqual(claims.mid, 7)
    }
  })

const Mode = Schema.Literals(["real", "demo"])

const everyWorld: ReadonlyArray<World> = KeyState.literals.flatMap((key) =>
  GameState.literals.flatMap((game) =>
    Mode.literals.flatMap((mode) =>
      Currency.literals.flatMap((currency) =>
        [true, false].flatMap((detailsUrl) =>
          Answer.literals.map((answer) => ({ key, game, mode, currency, detailsUrl, answer }))
        )
      )
    )
  )
)

describe("the launch rules against a reference model of the contract", () => {
  it.effect.prop(
    "the outcome is the first failing check in the contract's order; the operator is asked exactly when it should be",
    { key: KeyState, game: GameState, mode: Mode, currency: Currency, detailsUrl: Schema.Boolean, answer: Answer },
    check,
    { arbitrary: { runs: 300 } }
  )

  it.effect("and so does every one of the 1,764 worlds, swept in order", () =>
    Effect.forEach(everyWorld, check, { discard: true }))
})
