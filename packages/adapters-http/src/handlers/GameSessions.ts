import { Effect, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import {
  FairRandom,
  FreeRounds,
  GameCatalog,
  gameRules,
  GameSessionRepo,
  Ids,
  LaunchTokenVerifier,
  lobbyGames,
  makePlayRound,
  MerchantRepo,
  OperatorDetails,
  openSession,
  rotateSeed,
  roundHistory,
  roundRecall,
  RoundLedger,
  roundOf,
  startAutoplay,
  WalletClient
} from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import * as Ports from "../Ports.ts"
import { guardFailures, RateLimiter } from "../middleware/RateLimiter.ts"
import { SessionToken } from "@gateway/client/api/SessionAuth"
import * as Problem from "@gateway/client/api/Problem"

const noStore = { "cache-control": "no-store" as const }

/** The session token of a `Bearer` authorization header, if one is given. */
const bearerOf = (authorization: string | undefined): string | undefined => {
  const match = authorization === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)
  return match?.[1]
}

/** Sessions, rounds, fairness and the lobby, for the game front-end. */
export const GameSessionsLive = HttpApiBuilder.group(
  Api,
  "gameSessions",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(
      LaunchTokenVerifier,
      MerchantRepo,
      GameSessionRepo,
      GameCatalog,
      OperatorDetails,
      FairRandom,
      FreeRounds,
      WalletClient,
      RoundLedger,
      Ids
    )
    const limiter = yield* RateLimiter
    // Built once, as the rounds answered before routing build it (middleware/FastRound.ts).
    const play = yield* makePlayRound
    /** Runs a session call: domain errors become problems, and failed look-ups are charged to the client's address. */
    const run = <A, E extends Problem.DomainError, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(provide, Effect.mapError(Problem.fromDomain), guardFailures(limiter))
    const withToken = <A, E extends Problem.DomainError, R>(use: (token: string) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(SessionToken, (token) => run(use(Redacted.value(token))))
    const fresh = <A>(body: A) => HttpApiSchema.withHeaders({ body, headers: noStore })
    return handlers.handleAll({
      open: ({ payload }) => run(openSession(payload.token)).pipe(Effect.map(fresh)),
      play: ({ payload }) => withToken((token) => play(token, payload)).pipe(Effect.map(fresh)),
      lobby: ({ query }) => withToken((token) => lobbyGames(token, query)).pipe(Effect.map(fresh)),
      rules: ({ params }) =>
        Effect.flatMap(
          HttpServerRequest.HttpServerRequest,
          (request) => run(gameRules(params.gameId, bearerOf(request.headers["authorization"])))
        ),
      rounds: ({ query }) => withToken((token) => roundHistory(token, query)).pipe(Effect.map(fresh)),
      recall: ({ query }) => withToken((token) => roundRecall(token, query.gameId)).pipe(Effect.map(fresh)),
      round: ({ params }) => withToken((token) => roundOf(token, params.roundId)).pipe(Effect.map(fresh)),
      fairness: ({ payload }) => withToken((token) => rotateSeed(token, payload.clientSeed)).pipe(Effect.map(fresh)),
      autoplay: ({ payload }) => withToken((token) => startAutoplay(token, payload)).pipe(Effect.map(fresh))
    })
  })
)
