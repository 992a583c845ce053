import { Effect, Redacted } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import {
  GameEngine,
  GameSessionRepo,
  Ids,
  LaunchTokenVerifier,
  MerchantRepo,
  OperatorDetails,
  openSession,
  playRound,
  RoundLedger,
  WalletClient
} from "@gateway/domain"
import { Api } from "../api/Api.ts"
import * as Ports from "../Ports.ts"
import { guardFailures, RateLimiter } from "../middleware/RateLimiter.ts"
import { SessionToken } from "../api/SessionAuth.ts"
import * as Problem from "../api/Problem.ts"

const noStore = { "cache-control": "no-store" as const }

/** Sessions and rounds, for the game front-end. */
export const GameSessionsLive = HttpApiBuilder.group(
  Api,
  "gameSessions",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(
      LaunchTokenVerifier,
      MerchantRepo,
      GameSessionRepo,
      OperatorDetails,
      GameEngine,
      WalletClient,
      RoundLedger,
      Ids
    )
    const limiter = yield* RateLimiter
    return handlers.handleAll({
      open: ({ payload }) =>
        openSession(payload.token).pipe(
          provide,
          Effect.mapError(Problem.fromDomain),
          guardFailures(limiter),
          Effect.map((body) => HttpApiSchema.withHeaders({ body, headers: noStore }))
        ),
      play: ({ payload }) =>
        Effect.gen(function*() {
          const token = yield* SessionToken
          const result = yield* playRound(Redacted.value(token), payload).pipe(
            provide,
            Effect.mapError(Problem.fromDomain),
            guardFailures(limiter)
          )
          return HttpApiSchema.withHeaders({ body: result, headers: noStore })
        })
    })
  })
)
